/**
 * The collective engine: a collective is written once as a {@link dev.tutti.coll.Schedule} (rounds of nonblocking
 * sends and receives, then local steps), run by {@link dev.tutti.coll.ScheduleRun} for the blocking and nonblocking
 * variants, with the algorithm chosen by {@link dev.tutti.coll.SelectionTable}. Calls enter through
 * {@code coll.door} (above this package and the algorithms of {@code coll.algo} and {@code coll.inter}), described by
 * {@link dev.tutti.coll.CollCall}; this package also holds the intercommunicator's view ({@link
 * dev.tutti.coll.InterComm}). Whether a run's messages go through the message layer or through the slots of
 * persistent calls between ranks that share memory ({@code coll.slot}), {@code Road} decides.
 *
 * <p>Layer: coll. May import {@code coll.slot}, {@code p2p}, {@code transport}, {@code runtime}, {@code type},
 * {@code internal} and the value types of {@code dev.tutti}; never the api's handles ({@code Communicator},
 * {@code Tutti}), nor {@code coll.door}, {@code coll.algo} or {@code coll.inter}.
 */
package dev.tutti.coll;
