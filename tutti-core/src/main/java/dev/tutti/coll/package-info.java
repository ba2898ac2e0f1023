/**
 * The collective engine: a collective is written once as a {@link dev.tutti.coll.Schedule} (rounds of nonblocking
 * sends and receives, then local steps), run by {@link dev.tutti.coll.ScheduleRun} for the blocking and nonblocking
 * variants, with the algorithm chosen by {@link dev.tutti.coll.SelectionTable}.
 *
 * <p>Layer: coll. May import {@code p2p}, {@code transport}, {@code runtime}, {@code type}, {@code internal} and the
 * value types of {@code dev.tutti}; never the api classes ({@code Communicator}, {@code Tutti}).
 */
package dev.tutti.coll;
