package mpi.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;

/**
 * The corners of the conformance tests as one process job of 4 ranks: wildcard matched probes from three senders,
 * MPI.INFO_ENV's command and maxprocs, crossing buffered sends, a strided receive, a published service name, a
 * cancelled receive, waitSome and testAny over null requests, PROC_NULL statuses, count 0 and zero-count vector
 * blocks, and intercommunicator collectives over an accept/connect intercommunicator between {0, 1} and {2, 3}.
 * Prints "conformance OK" at rank 0; a failed check aborts with 3.
 */
public final class Conformance {
    private Conformance() {
    }

    private static void check(final boolean ok, final String what) throws MPIException {
        if (!ok) {
            System.err.println("rank " + MPI.COMM_WORLD.getRank() + ": " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        final int rank = w.getRank();
        check(Conformance.class.getName().equals(MPI.INFO_ENV.get("command")), "INFO_ENV command is "
            + MPI.INFO_ENV.get("command"));
        check(String.valueOf(w.getSize()).equals(MPI.INFO_ENV.get("maxprocs")), "INFO_ENV maxprocs");
        // matched probes: three messages, three distinct matches
        if (0 == rank) {
            w.barrier();
            final Message[] ms = {new Message(), new Message(), new Message()};
            final Status[] ps = new Status[3];
            for (int k = 0; k < 3; k++) {
                ps[k] = ms[k].mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, w);
            }
            int seen = 0;
            for (int k = 2; k >= 0; k--) {
                final int[] got = new int[2];
                final Status s = ms[k].mRecv(got, 2, MPI.INT);
                check(s.getSource() == ps[k].getSource() && got[0] == s.getSource(), "mRecv got another message");
                seen |= 1 << s.getSource();
            }
            check(0b1110 == seen, "matched probes saw sources " + Integer.toBinaryString(seen));
        } else {
            w.send(new int[] {rank, rank}, 1 + rank % 2, MPI.INT, 0, rank);
            w.barrier();
        }
        // a cancelled receive leaves its buffer alone
        final IntBuffer untouched = MPI.newIntBuffer(1).put(0, -4);
        final Request pending = w.iRecv(untouched, 1, MPI.INT, MPI.ANY_SOURCE, 777);
        pending.cancel();
        check(pending.waitStatus().isCancelled() && -4 == untouched.get(0), "cancelled receive");
        // null requests
        final Request[] nulls = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
        check(null == Request.waitSome(nulls), "waitSome over null requests");
        check(MPI.UNDEFINED == Request.testAny(nulls) && null != Request.testAnyStatus(nulls), "testAny");
        final Status pn = w.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 5);
        check(MPI.PROC_NULL == pn.getSource() && MPI.ANY_TAG == pn.getTag() && 0 == pn.getCount(MPI.INT),
            "PROC_NULL status");
        // count 0, and a zero-count block whose displacement lies past the buffer
        final int[] zero = {-1};
        w.allReduce(new int[1], zero, 0, MPI.INT, MPI.SUM);
        final int[] counts = {1, 0, 1, 1};
        final int[] displs = {0, 99, 1, 2};
        final int[] gv = new int[3];
        w.allGatherv(new int[] {rank}, counts[rank], MPI.INT, gv, counts, displs, MPI.INT);
        check(-1 == zero[0] && 0 == gv[0] && 2 == gv[1] && 3 == gv[2], "count 0 and zero-count blocks");
        // buffered mode buffers: partners send 400 KB to each other before either receives
        final int partner = rank ^ 1;
        final byte[] big = new byte[400_000];
        java.util.Arrays.fill(big, (byte) rank);
        MPI.attachBuffer(new byte[big.length + MPI.BSEND_OVERHEAD]);
        w.bSend(big, big.length, MPI.BYTE, partner, 9);
        final byte[] in = new byte[big.length];
        w.recv(in, in.length, MPI.BYTE, partner, 9);
        check(partner == in[0] && partner == in[in.length - 1], "crossing buffered sends");
        MPI.detachBuffer();
        // a large message sent dense and received strided (a derived type over processes)
        final mpi.Datatype strided = mpi.Datatype.createVector(73, 1536, 1552, MPI.CHAR);
        final mpi.Datatype dense = mpi.Datatype.createContiguous(73 * 1536, MPI.CHAR);
        strided.commit();
        dense.commit();
        final char[] chars = new char[73 * 1552];
        if (0 == rank) {
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) ('a' + i % 26);
            }
            w.send(chars, 1, dense, 1, 10);
        } else if (1 == rank) {
            w.recv(chars, 1, strided, 0, 10);
            check('a' + 1536 % 26 == chars[1552] && 0 == chars[1540] && 'a' + (1536 + 5) % 26 == chars[1552 + 5],
                "strided receive"); // block 1 starts at 1552, holding sent element 1536; 1536..1551 is a gap
        }
        // a service name published by rank 3, looked up by rank 2 (rank 0 keeps the table)
        if (3 == rank) {
            Intracomm.publishName("corners", "tutti-port:0:3:99");
        }
        w.barrier();
        if (2 == rank) {
            check("tutti-port:0:3:99".equals(Intracomm.lookupName("corners")), "lookupName");
        }
        w.barrier();
        if (3 == rank) {
            Intracomm.unpublishName("corners", "tutti-port:0:3:99");
        }
        // intercommunicator collectives over accept/connect
        final boolean a = rank < 2;
        final Intracomm half = w.split(a ? 0 : 1, rank);
        final char[] name = new char[MPI.MAX_PORT_NAME];
        final Intercomm inter;
        if (a) {
            final String port = 0 == half.getRank() ? Intracomm.openPort() : null;
            if (0 == half.getRank()) {
                w.send(port.toCharArray(), port.length(), MPI.CHAR, 2, 1);
            }
            inter = half.accept(port, 0);
        } else {
            if (0 == half.getRank()) {
                w.recv(name, name.length, MPI.CHAR, 0, 1);
            }
            inter = half.connect(new String(name).trim(), 0);
        }
        final int me = half.getRank();
        final int[] toA = new int[2];
        inter.gather(new int[] {10 + me}, 1, MPI.INT, toA, 1, MPI.INT, a ? (0 == me ? MPI.ROOT : MPI.PROC_NULL) : 0);
        check(!a || 1 == me || 10 == toA[0] && 11 == toA[1], "intercomm gather to A");
        final int[] toB = new int[2];
        inter.gather(new int[] {20 + me}, 1, MPI.INT, toB, 1, MPI.INT, a ? 1 : (1 == me ? MPI.ROOT : MPI.PROC_NULL));
        check(a || 0 == me || 20 == toB[0] && 21 == toB[1], "intercomm gather to B");
        final int[] sum = new int[1];
        inter.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        check((a ? 5 : 1) == sum[0], "intercomm allReduce");
        inter.disconnect();
        half.free();
        w.barrier();
        if (0 == rank) {
            System.out.println("conformance OK");
        }
        MPI.Finalize();
    }
}
