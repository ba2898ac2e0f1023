/**
 * The correctness checker (DESIGN.md §1.6): with the setting {@code tutti.check=on} (or
 * {@code Tutti.Options.check(true)}), every collective call is compared with its peers' calls before its data moves,
 * and a call that does not match throws {@code CollectiveMismatchException} on every rank involved, naming each
 * rank's call and call site. The api installs it on each rank as the hook of the collective engine's one door
 * ({@code dev.tutti.coll.CollHook}); with the checker off nothing of this package runs.
 */
package dev.tutti.check;
