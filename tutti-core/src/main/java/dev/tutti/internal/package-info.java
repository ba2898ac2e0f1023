/**
 * The api's support: the error message factories, {@code Errors} (what a caller passed) and {@code Failures} (what
 * went wrong below the caller); the settings registry ({@code Setting}, {@code Settings}); {@code Provider}, through
 * which the api's static entries find the implementation, and {@code GroupAccess}, the implementation's way to a
 * group's world ranks; the implementation of {@code Op}: {@code OpReduction}, an op applied with no communication
 * (the bodies of {@code Op.reduce} and {@code Op.reduceLocal}), {@code RawReduction}, the checks, type rules and
 * kernel choice of one reduction over raw memory, and {@code UserFunctions}, a user op's functions (checked, and
 * applied through the kernels); and {@code SegmentCopy}, the one way the library copies bytes between memory
 * segments.
 *
 * <p>Layer: internal, just below the api, which it serves and may import (the one pair of packages that know each
 * other); every layer may use it. Imports nothing else of Tutti but {@code type.kernel}.
 */
package dev.tutti.internal;
