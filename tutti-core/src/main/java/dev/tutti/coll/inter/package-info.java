/**
 * Collectives on intercommunicators: MPI's standard forms and Tutti's symmetric forms, written once as
 * schedules over the union of the two groups ({@link dev.tutti.coll.InterComm}), composed of the
 * intracommunicator algorithms of {@code dev.tutti.coll.algo} run inside each group and of messages between the
 * groups ({@link dev.tutti.coll.inter.InterAlgorithms}). Layer: {@code coll}; may import {@code dev.tutti}
 * (types), {@code dev.tutti.coll}, {@code dev.tutti.coll.algo}, {@code dev.tutti.p2p} and
 * {@code dev.tutti.type.kernel}.
 */
package dev.tutti.coll.inter;
