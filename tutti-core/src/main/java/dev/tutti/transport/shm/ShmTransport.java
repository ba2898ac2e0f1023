package dev.tutti.transport.shm;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.internal.Settings;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Inbound;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Outbound;
import dev.tutti.transport.Transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Transport between processes on one host through a memory-mapped job file ({@link ShmLayoutDescriptor}): every
 * rank has an inbox ring that all its peers write into ({@link ShmRing}), and every ordered pair a chunk channel
 * for large messages ({@link ShmChannel}). Nothing runs on a thread of its own: waiting threads drive everything
 * through {@link #poll()}.
 *
 * <p>Protocols. A message of at most {@code eagerLimit} bytes is one EAGER record: envelope and payload copied
 * into the receiver's ring; the send completes at once. A larger message is an RTS record (envelope, length,
 * message id); when the receiver matches it, it answers CTS (id, bytes wanted = min(length, receive buffer)) into
 * the sender's ring, and the sender's poller streams the bytes in chunks through the pair's channel while the
 * receiver's poller copies them out, so the two copies overlap; an unexpected large message costs only its RTS.
 * A message of at most {@code pushLimit} bytes skips the handshake (RTS_PUSH): the sender streams its chunks right
 * after the announcement, so the ranks hand over once instead of three times (what matters when ranks outnumber
 * cores and every hand-over waits for a scheduler slice). Its chunks wait in the channel until a receive matches;
 * if a later message's chunks must get past them, or the sender says goodbye, the receiving poller moves them to
 * the heap ({@link ShmPushedInbound}). A payload that lies in the sender's shared arena ({@link #allocShared}) is
 * announced by its file offset (RTS_SHARED): the receiver copies it once, straight from its own mapping, and
 * answers FIN. BYE says goodbye. The records' layout: {@link ShmRecordDescriptor}.
 *
 * <p>Implementation notes (threading and ownership).
 * <ul>
 * <li>Sends (any thread): records go into the destinations' rings in order per destination, or wait in the
 * {@link ShmOutbox} while a ring is full; an eager send whose record waits completes when the poller writes it
 * (back-pressure: a receiver that does not poll stalls its senders).</li>
 * <li>Polling: one poller at a time, whoever wins the {@code token} (tryLock; the others return 0 and idle). The
 * token holder owns the inbox's consumer side, both ends of the chunk channels, the stream, incoming and pushed
 * tables, and the liveness check; fields it alone touches are plain. Other threads hand it new work through
 * concurrent queues ({@code newStreams}: pushed sends; {@code newIncoming}: matched streamed receives). Work per
 * poll is bounded (records and chunks), so a flood cannot starve the caller's own request.</li>
 * <li>Failure: every {@code livenessMs} the poller checks the peers' slots and processes ({@link ShmLiveness},
 * set up at {@link #start}); a peer whose process is gone without goodbye, or that aborted, fails with
 * {@link ErrorClass#PROC_FAILED} naming its rank ({@link InboundSink#peerFailed}), and every transfer with it fails.
 * A BYE record, read in order after the peer's last message, calls {@link InboundSink#peerLeft}.</li>
 * <li>Hot path cost: an eager send is one CAS, two copies of the envelope and a copy of the payload (no request
 * object for a blocking send, {@link #trySendNow}); a receive whose receive is posted is one acquire load and one
 * copy from the ring into the receive buffer ({@link InboundSink#arriveNow}), an unexpected one an
 * {@link Inbound} whose copy of the bytes lives in a pooled array ({@link EagerBufferPool}). No lock, no system
 * call, no allocation on the expected path; one small object on the unexpected one.
 * </li>
 * </ul>
 */
public final class ShmTransport implements Transport {
    private static final int MAX_RECORDS_PER_POLL = 64;
    private static final int MAX_CHUNKS_PER_POLL = 32;
    private static final int CLOCK_EVERY_POLLS = 64;
    private static final int ALIVE = 0;
    private static final int LEFT = 1;
    private static final int FAILED = 2;
    private static final long CLOSE_TIMEOUT_MS = 10_000;

    private final ShmFile file;
    private final MemorySegment seg;
    private final int rank;
    private final int size;
    private final InboundSink sink;
    private final ShmConfig config;
    private final long eagerLimit;
    private final long pushLimit;
    private final ShmRing[] rings;
    private final ShmRing inbox;
    private final ShmChannel[] outChannels;
    private final ShmChannel[] inChannels;
    private final SharedArena arena;
    private final ShmDirectMemory direct;
    private final AtomicBoolean token = new AtomicBoolean();
    private final AtomicIntegerArray peerState;
    private final ShmOutbox outbox;
    private final AtomicLong nextMsgId = new AtomicLong(1);
    private final ConcurrentHashMap<Long, ShmOutgoing> awaitingCts = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<ShmIncoming> newIncoming = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ShmOutgoing> newStreams = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    private final AtomicLong singleCopySends = new AtomicLong();
    private final EagerBufferPool eagerBuffers = new EagerBufferPool();
    private final ShmEagerInbound.Envelopes eagerEnvelopes = new ShmEagerInbound.Envelopes();
    private volatile boolean closed;
    private volatile boolean[] peers;
    private ShmLiveness liveness;
    /* Owned by the token holder. */
    private final ArrayDeque<ShmOutgoing>[] streams;
    private final Map<Long, ShmIncoming>[] incoming;
    private final Map<Long, ShmPushedInbound>[] pushed;
    private int activeStreams;
    private int activeIncoming;
    private long nextLivenessNs;
    private long polls;

    @SuppressWarnings({"rawtypes", "unchecked"}) // arrays of generic queues and maps, one per peer
    private ShmTransport(final ShmFile file, final InboundSink sink, final ShmConfig config) {
        this.file = file;
        this.seg = file.segment;
        this.rank = file.rank;
        this.size = file.layout.ranks;
        this.sink = sink;
        this.config = config;
        this.rings = new ShmRing[size];
        this.outChannels = new ShmChannel[size];
        this.inChannels = new ShmChannel[size];
        for (int r = 0; r < size; r++) {
            rings[r] = new ShmRing(seg, file.layout.inbox(r), file.layout.ringBytes);
            if (r != rank) {
                outChannels[r] = new ShmChannel(seg, file.layout, rank, r);
                inChannels[r] = new ShmChannel(seg, file.layout, r, rank);
            }
        }
        this.inbox = rings[rank];
        ShmRing.warmUp(seg, file.layout.warmUpRing(rank), ShmRing.WARM_UP_RECORDS);
        this.eagerLimit = Math.min(config.eagerLimit(),
            inbox.maxRecordBytes() - ShmRecordDescriptor.EAGER_HEADER_BYTES);
        this.pushLimit = Math.min(config.pushLimit(), file.layout.chunkBytes * file.layout.chunksPerChannel);
        this.arena = new SharedArena(seg, file.layout.arena(rank), file.layout.arenaBytes);
        this.direct = new ShmDirectMemory(arena, file, rank, eagerLimit);
        this.peerState = new AtomicIntegerArray(size);
        this.outbox = new ShmOutbox(seg, rank, rings);
        this.streams = new ArrayDeque[size];
        this.incoming = new Map[size];
        this.pushed = new Map[size];
        for (int r = 0; r < size; r++) {
            streams[r] = new ArrayDeque<>();
            incoming[r] = new HashMap<>();
            pushed[r] = new HashMap<>();
        }
        this.peers = new boolean[size];
    }

    /**
     * Maps the job's file (creating it if this rank is the first on the host) and registers this rank. The job's
     * fence (the rendezvous) must follow before {@link #ranksOnHost()} and {@link #start}.
     *
     * @param path   the job file ({@link dev.tutti.runtime.Configuration#shmFile})
     * @param jobId  the job id
     * @param rank   this rank
     * @param size   the job's size
     * @param sink   where arrivals go
     * @param config the tunables
     * @return the transport, not yet started
     * @throws TuttiException of class {@link ErrorClass#INTERN} if the file cannot be created or mapped, or belongs
     *                        to a job with other settings
     */
    public static ShmTransport join(final Path path, final String jobId, final int rank, final int size,
        final InboundSink sink, final ShmConfig config) {
        try {
            return new ShmTransport(ShmFile.join(path, jobId, rank, size, config), sink, config);
        } catch (final IOException | IllegalStateException | IllegalArgumentException e) {
            throw Failures.io("shm join", "rank=" + rank + ", size=" + size + ", file=" + path,
                "cannot join the job file", e);
        }
    }

    /**
     * Returns which ranks registered in the job file, i.e. run on this host. Valid after the job's fence.
     *
     * @return per world rank, true if on this host (this rank included)
     */
    public boolean[] ranksOnHost() {
        return file.ranksOnHost();
    }

    /**
     * Starts serving the given peers (every rank routed to this transport); their liveness is watched from now on.
     *
     * @param served per world rank, whether this transport carries the traffic with it (this rank must be false)
     */
    public void start(final boolean[] served) {
        liveness = new ShmLiveness(file, served);
        peers = served.clone(); // volatile store: publishes the liveness above to every poller
    }

    /** @return the largest payload sent inline through the ring */
    public long eagerLimit() {
        return eagerLimit;
    }

    // ------------------------------------------------------------------------------------------------ sending

    @Override
    public void send(final int destWorldRank, final Outbound message) {
        final int d = destWorldRank;
        if (d < 0 || d >= size || !peers[d]) {
            throw Failures.internal("shm send", "rank=" + rank, "destWorldRank=" + d
                + " is not a shm peer of this rank");
        }
        if (closed || ALIVE != peerState.get(d)) {
            message.sent(gone(d, "send"));
            return;
        }
        final MemorySegment payload = message.payload();
        final long length = payload.byteSize();
        if (length <= eagerLimit) {
            outbox.sendEager(d, message);
            return;
        }
        final long msgId = nextMsgId.getAndIncrement();
        final long shared = arena.offsetOf(payload);
        // Pushed only if its announcement goes into the ring now: chunks must not overtake it.
        if (shared < 0 && length <= pushLimit && outbox.tryRts(d, message, ShmRecordDescriptor.RTS_PUSH, msgId, -1)) {
            final ShmOutgoing o = new ShmOutgoing(d, message, msgId);
            o.wanted = length;
            newStreams.add(o);
            return;
        }
        awaitingCts.put(msgId, new ShmOutgoing(d, message, msgId));
        final int type;
        if (shared >= 0) {
            type = ShmRecordDescriptor.RTS_SHARED;
            singleCopySends.incrementAndGet();
        } else {
            type = ShmRecordDescriptor.RTS;
        }
        outbox.sendRts(d, message, type, msgId, shared);
    }

    @Override
    public boolean trySendNow(final int destWorldRank, final int context, final int tag, final int typeCode,
        final MemorySegment payload) {
        final int d = destWorldRank;
        return d >= 0 && d < size && peers[d] && !closed && ALIVE == peerState.get(d)
            && payload.byteSize() <= eagerLimit && outbox.tryEager(d, context, tag, typeCode, payload);
    }

    // ------------------------------------------------------------------------------------------------ polling

    @Override
    public int poll() {
        if (closed || !token.compareAndSet(false, true)) {
            return 0;
        }
        try {
            return pollOwned();
        } finally {
            token.setRelease(false); // release: what this poller wrote happens-before the next CAS that wins
        }
    }

    private int pollOwned() {
        int work = drainInbox();
        if (outbox.anyQueued()) {
            work += outbox.flush();
        }
        if (!newIncoming.isEmpty()) {
            takeNewIncoming();
        }
        if (0 != activeIncoming) {
            work += pumpIncoming();
        }
        if (!newStreams.isEmpty()) {
            takeNewStreams();
        }
        if (0 != activeStreams) {
            work += pumpStreams();
        }
        // The clock is read on every 64th poll only: a busy-polling rank polls every few tens of nanoseconds, and
        // a clock read costs about as much as the rest of an empty poll.
        if (0 == (++polls & (CLOCK_EVERY_POLLS - 1))) {
            final long now = System.nanoTime();
            if (now - nextLivenessNs >= 0) {
                nextLivenessNs = now + TimeUnit.MILLISECONDS.toNanos(config.livenessMs());
                checkPeers();
            }
        }
        return work;
    }

    private int drainInbox() {
        final ShmRing ring = inbox;
        final MemorySegment f = seg;
        ring.releaseBatch(); // what earlier polls consumed, once a batch: zeroed now, off the path of their replies
        int n = 0;
        while (n < MAX_RECORDS_PER_POLL) {
            final long h = ring.peek();
            if (0 == h) {
                break;
            }
            final long at = ring.recordAt();
            switch (ShmRing.type(h)) {
                case ShmRecordDescriptor.EAGER -> {
                    final int length = ShmRing.length(h) - ShmRecordDescriptor.EAGER_HEADER_BYTES;
                    // Read in place, not through calls: see ShmRecordDescriptor (C2 would not inline them here).
                    final int context = f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTEXT_OFFSET);
                    final int source = f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.SOURCE_OFFSET);
                    final int tag = f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TAG_OFFSET);
                    final int typeCode = f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.TYPE_CODE_OFFSET);
                    final long payloadAt = at + ShmRecordDescriptor.PAYLOAD_OFFSET;
                    // A posted receive takes the bytes straight from the ring; else they are copied out first.
                    if (!sink.arriveNow(context, source, tag, typeCode, f, payloadAt, length)) {
                        sink.arrive(ShmEagerInbound.of(context, source, tag, typeCode, f, payloadAt, length,
                            eagerBuffers, eagerEnvelopes));
                    }
                }
                case ShmRecordDescriptor.RTS, ShmRecordDescriptor.RTS_SHARED ->
                    sink.arrive(ShmRendezvousInbound.read(this, f, at));
                case ShmRecordDescriptor.RTS_PUSH -> {
                    final ShmPushedInbound p = ShmPushedInbound.read(this, f, at);
                    pushed[p.source].put(p.msgId(), p);
                    sink.arrive(p);
                }
                case ShmRecordDescriptor.CTS -> onCts(
                    f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTROL_SOURCE_OFFSET),
                    f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.CONTROL_MSG_ID_OFFSET),
                    f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.CONTROL_VALUE_OFFSET));
                case ShmRecordDescriptor.FIN -> onFin(
                    f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTROL_SOURCE_OFFSET),
                    f.get(ValueLayout.JAVA_LONG, at + ShmRecordDescriptor.CONTROL_MSG_ID_OFFSET));
                case ShmRecordDescriptor.BYE -> onBye(
                    f.get(ValueLayout.JAVA_INT, at + ShmRecordDescriptor.CONTROL_SOURCE_OFFSET));
                default -> throw Failures.protocol("shm poll", "rank=" + rank, "unknown record type="
                    + ShmRing.type(h) + " length=" + ShmRing.length(h) + " in the inbox of " + file.path);
            }
            ring.consume(h);
            n++;
        }
        return n;
    }

    private void onCts(final int from, final long msgId, final long wanted) {
        final ShmOutgoing o = awaitingCts.remove(msgId);
        if (null == o) {
            return; // failed meanwhile (peer gone, transport closing)
        }
        if (0 == wanted) {
            o.out.sent(null);
            return;
        }
        o.wanted = wanted;
        streams[from].addLast(o);
        activeStreams++;
    }

    private void onFin(final int from, final long msgId) {
        final ShmOutgoing o = awaitingCts.remove(msgId);
        if (null != o) {
            o.out.sent(null);
        }
    }

    private void onBye(final int from) {
        // The peer finished its streams before saying goodbye, so every chunk it sent is in the channel (its
        // release of produced happens-before its BYE): take them all before the peer counts as gone.
        takeNewIncoming();
        if (!incoming[from].isEmpty() || !pushed[from].isEmpty()) {
            pumpFrom(from, Integer.MAX_VALUE, true); // pushed messages not yet received move to the heap
        }
        if (peerState.compareAndSet(from, ALIVE, LEFT)) {
            failTransfers(from, Failures.peerLeft(from));
            sink.peerLeft(from);
        }
    }

    private int pumpStreams() {
        int chunks = 0;
        for (int d = 0; d < size && chunks < MAX_CHUNKS_PER_POLL; d++) {
            final ArrayDeque<ShmOutgoing> q = streams[d];
            ShmOutgoing o;
            while (chunks < MAX_CHUNKS_PER_POLL && null != (o = q.peekFirst())) {
                final ShmChannel ch = outChannels[d];
                final long n = Math.min(ch.chunkBytes(), o.wanted - o.done);
                if (!ch.offer(o.msgId, o.out.payload(), o.done, n)) {
                    break;
                }
                chunks++;
                o.done += n;
                if (o.done == o.wanted) {
                    q.pollFirst();
                    activeStreams--;
                    o.out.sent(null);
                }
            }
        }
        return chunks;
    }

    /** Moves pushed sends (any thread) into the poller's stream queues, behind what streams already. */
    private void takeNewStreams() {
        ShmOutgoing o;
        while (null != (o = newStreams.poll())) {
            streams[o.dest].addLast(o);
            activeStreams++;
        }
    }

    /** Moves receives matched by any thread into the poller's table. */
    private void takeNewIncoming() {
        ShmIncoming in;
        while (null != (in = newIncoming.poll())) {
            if (ALIVE != peerState.get(in.source)) {
                in.done.delivered(gone(in.source, "recv"));
                continue;
            }
            incoming[in.source].put(in.msgId, in);
            activeIncoming++;
            if (in.pushed) {
                pushed[in.source].remove(in.msgId);
            }
        }
    }

    private int pumpIncoming() {
        int chunks = 0;
        for (int s = 0; s < size && chunks < MAX_CHUNKS_PER_POLL; s++) {
            if (!incoming[s].isEmpty()) {
                chunks += pumpFrom(s, MAX_CHUNKS_PER_POLL - chunks, false);
            }
        }
        return chunks;
    }

    /**
     * Copies out up to {@code budget} chunks that rank {@code s} has streamed to this rank, in channel order. A chunk
     * of a pushed message that no receive matched yet stays in the channel (and so does everything behind it),
     * unless a matched message waits behind it or {@code drain} is set (the sender said goodbye): then it moves to
     * the message's heap buffer. A chunk whose announcement this poller has not read yet stops the pump until a
     * later poll.
     */
    private int pumpFrom(final int s, final int budget, final boolean drain) {
        final MemorySegment f = seg;
        final Map<Long, ShmIncoming> table = incoming[s];
        final ShmChannel ch = inChannels[s];
        int chunks = 0;
        long slot;
        while (chunks < budget && (slot = ch.readySlot()) >= 0) {
            final long msgId = ShmChannel.msgId(f, slot);
            ShmIncoming in = table.get(msgId);
            if (null == in) {
                takeNewIncoming();
                in = table.get(msgId);
            }
            final long offset = ShmChannel.offset(f, slot);
            final long n = ShmChannel.bytes(f, slot);
            if (null != in) {
                final long copy = Math.min(n, in.wanted - offset); // a truncating receive drops the rest
                if (copy > 0) {
                    SegmentCopy.copy(f, ShmChannel.data(slot), in.destination, offset, copy);
                }
                in.received += n;
                if (in.received == in.total) {
                    table.remove(msgId);
                    activeIncoming--;
                    in.done.delivered(null);
                }
            } else {
                final ShmPushedInbound p = pushed[s].get(msgId);
                if (null == p) {
                    // Its RTS_PUSH is committed but not read yet: the inbox is drained a bounded number of records
                    // per poll, and a record claimed earlier by another sending thread may not be committed yet
                    // (the consumer reads in claim order), so even an inbox that looks empty proves nothing.
                    break;
                }
                if (!drain && table.isEmpty() && !p.buffering()) {
                    break; // nothing waits behind it: it stays in the channel until a receive matches
                }
                if (!p.startBuffering()) {
                    takeNewIncoming(); // a receive matched it just now: its transfer is in newIncoming...
                    if (!table.containsKey(msgId)) {
                        break; // ...unless it failed at once (the transport is closing)
                    }
                    continue;
                }
                if (p.buffer(f, ShmChannel.data(slot), offset, n)) {
                    pushed[s].remove(msgId);
                }
            }
            ch.release(slot, n);
            chunks++;
        }
        return chunks;
    }

    /**
     * Delivers a matched rendezvous message (called by {@link ShmRendezvousInbound#deliver} on any thread).
     *
     * @param source       the sender
     * @param msgId        the sender's message id
     * @param sharedOffset file offset of a single-copy payload, or -1
     * @param wanted       bytes to move (the receive buffer's share)
     * @param destination  the receive buffer
     * @param done         the completion
     */
    void deliverRendezvous(final int source, final long msgId, final long sharedOffset, final long wanted,
        final MemorySegment destination, final Inbound.Delivery done) {
        if (closed || ALIVE != peerState.get(source)) {
            done.delivered(gone(source, "recv"));
            return;
        }
        if (sharedOffset >= 0) {
            if (0 != wanted) {
                SegmentCopy.copy(seg, sharedOffset, destination, 0, wanted);
            }
            outbox.sendControl(source, ShmRecordDescriptor.FIN, msgId, 0);
            done.delivered(null);
            return;
        }
        if (0 == wanted) {
            outbox.sendControl(source, ShmRecordDescriptor.CTS, msgId, 0);
            done.delivered(null);
            return;
        }
        newIncoming.add(new ShmIncoming(source, msgId, destination, wanted, wanted, false, done));
        outbox.sendControl(source, ShmRecordDescriptor.CTS, msgId, wanted);
    }

    /**
     * Delivers a matched pushed message whose chunks are still in the channel (called by
     * {@link ShmPushedInbound#deliver} on any thread, under its lock): the poller copies them into the receive
     * buffer as they come; a truncating receive takes the first {@code wanted} bytes and the rest is dropped.
     *
     * @param source      the sender
     * @param msgId       the sender's message id
     * @param length      the message's length (what the channel carries)
     * @param wanted      bytes to keep (the receive buffer's share)
     * @param destination the receive buffer
     * @param done        the completion
     */
    void deliverPushed(final int source, final long msgId, final long length, final long wanted,
        final MemorySegment destination, final Inbound.Delivery done) {
        if (closed || ALIVE != peerState.get(source)) {
            done.delivered(gone(source, "recv"));
            return;
        }
        newIncoming.add(new ShmIncoming(source, msgId, destination, wanted, length, true, done));
    }

    // ------------------------------------------------------------------------------------------------ failure

    private void checkPeers() {
        final boolean[] served = peers;
        for (int r = 0; r < size; r++) {
            if (!served[r] || ALIVE != peerState.get(r)) {
                continue;
            }
            final String why = liveness.failure(r);
            if (null != why) {
                failPeer(r, why);
            }
            // Left: its goodbye is in our inbox, after its last message (read in order by drainInbox).
        }
    }

    private void failPeer(final int r, final String why) {
        if (peerState.compareAndSet(r, ALIVE, FAILED)) {
            final TuttiException e = Failures.peerFailed(r, why + " (noticed by rank " + rank + " over shm)", null);
            failTransfers(r, e);
            sink.peerFailed(r, e);
        }
    }

    /** Fails every send and receive in progress with peer {@code r}; the token holder calls it. */
    private void failTransfers(final int r, final TuttiException e) {
        outbox.fail(r, e);
        final Iterator<ShmOutgoing> it = awaitingCts.values().iterator();
        while (it.hasNext()) {
            final ShmOutgoing o = it.next();
            if (o.dest == r) {
                it.remove();
                o.out.sent(e);
            }
        }
        takeNewStreams();
        for (final ShmOutgoing o : streams[r]) {
            activeStreams--;
            o.out.sent(e);
        }
        streams[r].clear();
        for (final ShmPushedInbound p : pushed[r].values()) {
            p.fail(e); // one wholly buffered stays deliverable
        }
        pushed[r].clear();
        takeNewIncoming();
        for (final ShmIncoming in : incoming[r].values()) {
            activeIncoming--;
            in.done.delivered(e);
        }
        incoming[r].clear();
    }

    private TuttiException gone(final int r, final String op) {
        if (closed) {
            return Failures.unreachable("shm " + op, "rank=" + rank, "the transport is closed, so rank=" + r
                + " cannot be reached");
        }
        return Failures.unreachable("shm " + op, "rank=" + rank, "rank " + r
            + (LEFT == peerState.get(r) ? " has left the job" : " failed"));
    }

    // ------------------------------------------------------------------------------------------------ shared arena

    /**
     * Allocates a buffer in this rank's shared arena. A send whose payload lies in such a buffer is copied once, by
     * the receiver, straight out of the shared file. Messages up to the eager limit are copied inline anyway.
     *
     * @param bytes the size
     * @return a segment of this rank's mapping, valid until {@link #freeShared} or {@link #close}
     * @throws TuttiException of class {@link ErrorClass#ARG} if the arena has no room (setting
     *                        {@code tutti.shm.arenaMiB})
     */
    public MemorySegment allocShared(final long bytes) {
        if (bytes < 0) {
            throw Errors.argument(ErrorClass.ARG, "allocShared", "rank=" + rank, "bytes", bytes, ">= 0");
        }
        final MemorySegment s = arena.allocate(bytes);
        if (null == s) {
            throw Errors.expected(ErrorClass.ARG, "allocShared", "rank=" + rank, "bytes=" + bytes
                + " do not fit in the free part of the shared arena of " + file.layout.arenaBytes + " bytes",
                "less, or a larger " + dev.tutti.internal.Settings.SHM_ARENA_MIB.name());
        }
        return s;
    }

    /** @return this rank's arena as direct memory for the collectives' slots ({@link ShmDirectMemory}) */
    @Override
    public DirectMemory directMemory() {
        return direct;
    }

    /**
     * Frees a buffer from {@link #allocShared}.
     *
     * @param segment the buffer
     * @throws TuttiException of class {@link ErrorClass#ARG} if it was not allocated here
     */
    public void freeShared(final MemorySegment segment) {
        if (!arena.free(segment)) {
            throw Errors.expected(ErrorClass.ARG, "freeShared", "rank=" + rank, "segment at address="
                + segment.address() + " is not a live block of this rank's shared arena",
                "a segment from allocShared, freed once");
        }
    }

    // ------------------------------------------------------------------------------------------------ closing

    /**
     * Says goodbye to every peer (a BYE record after everything already queued; to a peer that left first too, so
     * that it stops waiting for this goodbye), waits (at most 10 s) until queued records and streams in progress
     * are written, reads the peers' goodbyes for a short while ({@link #awaitGoodbyes}), marks this rank left, and
     * unmaps; the last rank of the host deletes the file. Rendezvous sends not yet matched by their receivers, and receives in progress, fail.
     */
    @Override
    public void close() {
        if (!closeStarted.compareAndSet(false, true)) {
            return;
        }
        final boolean[] served = peers;
        for (int r = 0; r < size; r++) {
            if (!served[r]) {
                continue;
            }
            final int state = peerState.get(r);
            if (ALIVE == state) {
                outbox.sendControl(r, ShmRecordDescriptor.BYE, 0, 0);
            } else if (LEFT == state) {
                // A peer that said goodbye first may still read its inbox for this rank's goodbye
                // (awaitGoodbyes): written if its ring has room now, never queued, as nobody may read it.
                outbox.tryControl(r, ShmRecordDescriptor.BYE, 0, 0);
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_TIMEOUT_MS);
        boolean clean = true;
        while (outbox.anyQueued() || 0 != activeStreams || !newStreams.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                clean = false;
                break;
            }
            if (0 == poll()) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
        if (clean) {
            awaitGoodbyes(served);
        }
        shutdown(clean);
    }

    /**
     * Reads the inbox until every served peer has said goodbye or failed, for at most the setting
     * {@link Settings#SHM_CLOSE_WAIT_MS}: a peer's BYE comes after everything it sent, so the messages of peers that
     * close at about the same time are all read, and the collective layer can tell a message that no call received
     * (a mismatch) from one still on its way. A peer still running after that keeps running; this rank leaves.
     */
    private void awaitGoodbyes(final boolean[] served) {
        final long waitMs = Settings.SHM_CLOSE_WAIT_MS.intValue();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (waitMs > 0 && anyAlive(served) && System.nanoTime() - deadline < 0) {
            if (0 == poll()) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
            }
        }
    }

    private boolean anyAlive(final boolean[] served) {
        for (int r = 0; r < size; r++) {
            if (served[r] && ALIVE == peerState.get(r)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Leaves at once without goodbye (peers see this rank fail), for a process going down abnormally and for
     * tests; transfers in progress fail.
     */
    @Override
    public void abort() {
        closeStarted.set(true);
        shutdown(false);
    }

    private void shutdown(final boolean clean) {
        closed = true;
        while (!token.compareAndSet(false, true)) {
            Thread.onSpinWait(); // a poller is inside; it returns within one bounded poll
        }
        try {
            final TuttiException e = Failures.unreachable("shm transport", "rank=" + rank,
                "closed while a transfer was pending");
            for (int r = 0; r < size; r++) {
                if (r != rank) {
                    failTransfers(r, e);
                }
            }
            file.leave(clean);
        } finally {
            token.setRelease(false); // release: what this poller wrote happens-before the next CAS that wins
        }
    }

    /**
     * Returns the bytes of this rank's shared arena not in any block now (its buffers, windows, and the collectives'
     * slots and on-host regions take the rest): for diagnostics and tests.
     *
     * @return the bytes
     */
    public long sharedFreeBytes() {
        return arena.freeBytes();
    }

    /** @return how many sends took the single-copy path (payload in the shared arena) */
    public long singleCopySends() {
        return singleCopySends.get();
    }

    /** @return the job file */
    public Path path() {
        return file.path;
    }

    @Override
    public String toString() {
        return "shm(rank=" + rank + ", size=" + size + ", eagerLimit=" + eagerLimit + ", file=" + file.path + ")";
    }
}
