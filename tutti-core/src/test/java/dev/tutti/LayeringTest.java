package dev.tutti;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import dev.tutti.internal.SegmentCopy;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dependency rule of STYLE.md §3.1, checked on the compiled classes of the main sources (so fully-qualified
 * references, lambdas and nested classes count as much as imports): channel → api → comm → coll → p2p → transport
 * → runtime → internal, each layer using only layers below it; {@code channel} (the alltoall channels, built on
 * the public api alone) is the top, which nothing uses, and it may use only the api, the value types and
 * {@code internal}, not the engine below the api; {@code check} (the correctness checker) sits beside the api,
 * which alone installs it, and uses the layers below; {@code type} (datatypes, kernels, type codes) is a leaf every
 * layer below the api may use; the value types of {@code dev.tutti} (buffers, datatypes, ops, statuses, requests,
 * exceptions) may be used by every layer; {@code internal} (the error factories) is the bottom that every layer,
 * {@code type} and the value types included, may use. Also checked here: bytes are copied between memory segments
 * only through {@link SegmentCopy}.
 */
class LayeringTest {
    /**
     * The classes of {@code dev.tutti} that every layer may use (and nested classes of them); {@code Requests} is
     * the package-private body of {@code Request}'s static waits.
     */
    private static final Set<String> VALUE_TYPES = Set.of("Buf", "Layout", "Datatype", "Op", "Status", "Request",
        "Requests", "CollectiveHandle", "PersistentRequest", "TuttiException", "CollectiveMismatchException",
        "DeadlockException", "CheckFailedException", "ErrorClass");

    private static final DescribedPredicate<JavaClass> VALUE = DescribedPredicate.describe(
        "the value types of dev.tutti", c -> "dev.tutti".equals(c.getPackageName()) && VALUE_TYPES.contains(topLevel(c).getSimpleName()));
    private static final DescribedPredicate<JavaClass> API = DescribedPredicate.describe(
        "the api classes of dev.tutti", c -> "dev.tutti".equals(c.getPackageName()) && !VALUE_TYPES.contains(topLevel(c).getSimpleName()));

    private static JavaClass topLevel(final JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }

    /** The rule; {@code classes} are what it is checked on. */
    static EvaluationResult evaluate(final JavaClasses classes) {
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("channel").definedBy("dev.tutti.channel..")
            .layer("api").definedBy(API)
            .layer("check").definedBy("dev.tutti.check..")
            .layer("comm").definedBy("dev.tutti.comm..")
            .layer("coll").definedBy("dev.tutti.coll..")
            .layer("p2p").definedBy("dev.tutti.p2p..")
            .layer("transport").definedBy("dev.tutti.transport..")
            .layer("runtime").definedBy("dev.tutti.runtime..")
            .layer("internal").definedBy("dev.tutti.internal..")
            .layer("type").definedBy("dev.tutti.type..")
            .layer("values").definedBy(VALUE)
            .whereLayer("channel").mayNotBeAccessedByAnyLayer()
            .whereLayer("api").mayOnlyBeAccessedByLayers("channel")
            .whereLayer("check").mayOnlyBeAccessedByLayers("api")
            .whereLayer("comm").mayOnlyBeAccessedByLayers("api", "check")
            .whereLayer("coll").mayOnlyBeAccessedByLayers("api", "check", "comm")
            .whereLayer("p2p").mayOnlyBeAccessedByLayers("api", "check", "comm", "coll")
            .whereLayer("transport").mayOnlyBeAccessedByLayers("api", "check", "comm", "coll", "p2p")
            .whereLayer("runtime").mayOnlyBeAccessedByLayers("api", "check", "comm", "coll", "p2p", "transport")
            .whereLayer("internal").mayOnlyBeAccessedByLayers("channel", "api", "check", "comm", "coll", "p2p",
                "transport", "runtime", "type", "values")
            .whereLayer("type").mayOnlyBeAccessedByLayers("api", "check", "comm", "coll", "p2p", "transport",
                "values")
            .evaluate(classes);
    }

    /** The copy rule: no class but {@link SegmentCopy} calls the five-argument {@code MemorySegment.copy}. */
    static EvaluationResult evaluateCopies(final JavaClasses classes) {
        return noClasses().that().doNotHaveFullyQualifiedName(SegmentCopy.class.getName())
            .should().callMethod(MemorySegment.class, "copy", MemorySegment.class, long.class, MemorySegment.class,
                long.class, long.class)
            .because("copies go through SegmentCopy (a JDK 25 miscompilation of the short-copy loop, and its cost)")
            .evaluate(classes);
    }

    private static JavaClasses mainClasses() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tutti");
    }

    @Test
    void shouldNeverUseALayerAbove() {
        final EvaluationResult result = evaluate(mainClasses());
        assertFalse(result.hasViolation(), result.getFailureReport().toString());
    }

    @Test
    void shouldCopyBytesOnlyThroughSegmentCopy() {
        final EvaluationResult result = evaluateCopies(mainClasses());
        assertFalse(result.hasViolation(), result.getFailureReport().toString());
    }

    /** The copy rule catches what it is for: a class that calls the five-argument copy itself. */
    @Test
    void shouldNameAClassThatCopiesAroundSegmentCopy() throws ClassNotFoundException {
        final EvaluationResult result = evaluateCopies(new ClassFileImporter().importClasses(
            Class.forName("dev.tutti.internal.FiveArgumentCopy"), SegmentCopy.class));
        final String report = result.getFailureReport().toString();
        assertTrue(report.contains("FiveArgumentCopy"), "a five-argument copy went unnoticed: " + report);
    }

    /** The rule catches what it is for: a lower layer that reaches up, by import or by a fully-qualified name. */
    @Test
    void shouldCatchAnUpwardDependency() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(Class.forName("dev.tutti.p2p.UpwardFromP2p"),
            Communicator.class, dev.tutti.p2p.P2pEngine.class);
        final EvaluationResult result = evaluate(planted);
        assertTrue(result.hasViolation(), "a p2p class using the api layer went unnoticed");
        final String report = result.getFailureReport().toString();
        assertTrue(report.contains("UpwardFromP2p"), report);
    }

    /** Channels are the top: the api may not use them, and they may not reach past the api into the engine. */
    @Test
    void shouldKeepChannelsOnTopOfThePublicApi() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(
            Class.forName("dev.tutti.UpwardToChannel"), Class.forName("dev.tutti.channel.DownPastApi"),
            dev.tutti.channel.AlltoallChannel.class, dev.tutti.p2p.P2pEngine.class, Communicator.class);
        final EvaluationResult result = evaluate(planted);
        final String report = result.getFailureReport().toString();
        assertTrue(report.contains("UpwardToChannel"), "an api class using a channel went unnoticed: " + report);
        assertTrue(report.contains("DownPastApi"), "a channel class using p2p went unnoticed: " + report);
    }
}
