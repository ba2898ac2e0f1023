/**
 * The slots of persistent collectives between ranks that share memory: a road for a run's data beside the message
 * layer. A lane ({@code SlotLane}) is the slots between this rank and one peer for one shape of
 * call, agreed once by the two ranks; a part ({@link dev.tutti.coll.slot.SlotPart}) moves one message of a run through
 * a slot; a plan ({@link dev.tutti.coll.slot.SlotPlan}) is which messages of a persistent request go through which
 * lane; the lean rounds ({@link dev.tutti.coll.slot.SlotRounds}) move a run whose every message goes through slots
 * with nothing else. Which runs take this road, {@code dev.tutti.coll.Road} decides.
 *
 * <p>Layer: coll, below {@code dev.tutti.coll} (whose runs use it) and {@code coll.door}. May import {@code p2p},
 * {@code transport}, {@code internal} and the value types of {@code dev.tutti}; nothing of {@code dev.tutti.coll}
 * or the packages beside it: it knows no schedule, only the messages it is given.
 */
package dev.tutti.coll.slot;
