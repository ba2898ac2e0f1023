/**
 * The one door into the collective engine ({@link dev.tutti.coll.door.CollDoor}): every collective call enters
 * here as a validated {@link dev.tutti.coll.CollCall}, passes the rank's hook, has its algorithm selected and its
 * schedule taken from the cache or built (by {@code coll.algo} for intracommunicators, {@code coll.inter} for
 * intercommunicators), and is started as its variant says.
 *
 * <p>Layer: coll, its top. May import {@code coll}, {@code coll.algo}, {@code coll.inter} and the layers below
 * {@code coll}; nothing in {@code coll}, {@code coll.algo} or {@code coll.inter} imports it.
 */
package dev.tutti.coll.door;
