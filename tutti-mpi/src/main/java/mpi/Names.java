package mpi;

import dev.tutti.Communicator;
import dev.tutti.TuttiException;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * MPI's name service (MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name) within one job: a service name maps
 * to a port name, visible to every process of the job once published.
 *
 * <p>Implementation note: world rank 0 keeps the table in a daemon thread started at Init ({@link #serve}), which
 * answers requests on a private duplicate of the world ({@link Env#names()}): a request is an object message
 * {@code {asker, op, service, port}} with tag {@link #REQUEST} to rank 0, the answer {@code {error class, port}}
 * with tag {@link #REPLY} back to the asker. A rank asks one request at a time (the communicator's lock), so
 * answers cannot cross. The table is owned by the service thread alone. At Finalize, after the world's barrier (no
 * request can follow), rank 0 sets the service's stop flag and joins the thread. If the job ends otherwise (an
 * abort), the thread's probe fails and the thread ends with it. Errors are reported as MPI does: a service name
 * published twice is ERR_SERVICE, looking up an unknown one ERR_NAME, unpublishing one not published (or with
 * another port) ERR_SERVICE; they go to MPI_COMM_WORLD's handler. Cost: two small object messages per call, and a
 * thread at rank 0 that wakes at most every 5 ms while idle.
 */
final class Names {
    /** Tag of a request to rank 0. */
    static final int REQUEST = 1;
    /** Tag of rank 0's answer. */
    static final int REPLY = 2;

    private static final String PUBLISH = "publish";
    private static final String UNPUBLISH = "unpublish";
    private static final String LOOKUP = "lookup";

    private Names() {
    }

    /** World rank 0's service: its thread and the flag that stops it. */
    static final class Service {
        private final Thread thread;
        private volatile boolean stopping;

        private Service(final Communicator names) {
            thread = new Thread(() -> loop(names, this), "tutti-mpi-names");
            thread.setDaemon(true);
        }
    }

    /**
     * Starts the service of world rank 0.
     *
     * @param names the private duplicate of the world
     * @return the service
     */
    static Service serve(final Communicator names) {
        final Service s = new Service(names);
        s.thread.start();
        return s;
    }

    /*
     * The service polls (iprobe, then a park that grows to 5 ms while nothing comes) rather than blocking in a
     * receive: a thread parked between probes is not waiting in Tutti, so it never counts as a blocked wait in the
     * checker's deadlock detection, and it leaves no receive behind when the job ends.
     */
    private static void loop(final Communicator names, final Service service) {
        final Map<String, String> table = new HashMap<>();
        int idle = 0;
        while (!service.stopping) {
            final Object[] request;
            try {
                final dev.tutti.Status probed = names.iprobe(Communicator.ANY_SOURCE, REQUEST);
                if (null == probed) {
                    LockSupport.parkNanos(Math.min(5_000_000L, 20_000L << Math.min(8, idle++)));
                    continue;
                }
                idle = 0;
                request = names.recvObject(probed.source(), REQUEST);
            } catch (final TuttiException e) {
                return; // the job is ending without Finalize (an abort): nobody is left to ask
            }
            final int from = (Integer) request[0];
            final String op = (String) request[1];
            final String name = (String) request[2];
            final String port = (String) request[3];
            final Object[] answer = switch (op) {
                case PUBLISH -> null == table.putIfAbsent(name, port) ? ok(port)
                    : error(MPI.ERR_SERVICE, "service '" + name + "' is already published");
                case UNPUBLISH -> table.remove(name, port) ? ok(port) : error(MPI.ERR_SERVICE, "service '"
                    + name + "' is not published with port '" + port + "'");
                case LOOKUP -> table.containsKey(name) ? ok(table.get(name))
                    : error(MPI.ERR_NAME, "service '" + name + "' is not published");
                default -> error(MPI.ERR_INTERN, "unknown name service request '" + op + "'");
            };
            try {
                names.sendObject(answer, from, REPLY);
            } catch (final TuttiException e) {
                return; // the asker's job is ending
            }
        }
    }

    private static Object[] ok(final String port) {
        return new Object[] {MPI.SUCCESS, port};
    }

    private static Object[] error(final int errorClass, final String detail) {
        return new Object[] {errorClass, detail};
    }

    /** The body of {@link Intracomm#publishName}. */
    static void publish(final Env e, final String service, final String port) {
        ask(e, PUBLISH, required("publishName", "service", service), required("publishName", "port", port));
    }

    /** The body of {@link Intracomm#unpublishName}. */
    static void unpublish(final Env e, final String service, final String port) {
        ask(e, UNPUBLISH, required("unpublishName", "service", service), required("unpublishName", "port", port));
    }

    /** The body of {@link Intracomm#lookupName}. @return the port published under the service name */
    static String lookup(final Env e, final String service) {
        return ask(e, LOOKUP, required("lookupName", "service", service), null);
    }

    /** Stops rank 0's service thread (at Finalize, after the world's barrier: no request can follow). */
    static void stop(final Service service) {
        service.stopping = true;
        LockSupport.unpark(service.thread);
        try {
            service.thread.join();
        } catch (final InterruptedException x) {
            Thread.currentThread().interrupt();
            throw MpiErrors.error(MPI.ERR_INTERN, "Finalize: interrupted while stopping the name service");
        }
    }

    private static String required(final String what, final String name, final String value) {
        if (null == value || value.isEmpty()) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": " + name + "=" + (null == value ? "null" : "\"\"")
                + ", expected a name");
        }
        return value;
    }

    private static String ask(final Env e, final String op, final String service, final String port) {
        final Communicator names = e.names();
        final Object[] answer;
        synchronized (names) {
            names.sendObject(new Object[] {names.rank(), op, service, port}, 0, REQUEST);
            answer = names.recvObject(0, REPLY);
        }
        final int errorClass = (Integer) answer[0];
        if (MPI.SUCCESS != errorClass) {
            throw MpiErrors.error(errorClass, op + "Name: " + answer[1]);
        }
        return (String) answer[1];
    }
}
