package dev.tutti;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import dev.tutti.internal.SegmentCopy;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The architecture of STYLE.md §3.1 and docs/architecture.md, checked on the compiled classes of the main sources (so
 * fully-qualified references, lambdas and nested classes count as much as imports).
 *
 * <p>Layers: channel → api → job, calls → check → comm → coll → p2p → transport → runtime → internal, each layer
 * using only layers below it. {@code channel} (the alltoall channels, built on the public api alone) is the top,
 * which nothing uses, and it may use only the api, the value types and {@code internal}. The api is the package
 * {@code dev.tutti}: its <em>handles</em> (the classes that hold or start the implementation: any class of the
 * package that uses a package of the implementation, found from the classes, not listed) are used only by the
 * implementation they start ({@code job}, the entry point's wiring; {@code calls}, the handles' argument checks and
 * bridges) and by channels; its <em>value types</em> (every other class: buffers, datatypes, ops, statuses,
 * requests, exceptions) may be used by every layer. {@code check} (the correctness checker) sits beside the api,
 * which alone installs it; {@code type} (datatypes, kernels, type codes) is a leaf every layer below the api may use;
 * {@code internal} (the error factories) is the bottom that every layer, {@code type} and the value types included,
 * may use.
 *
 * <p>Cycles: no two packages below the api use each other, directly or not; and no classes of different packages
 * form a cycle, with one exception: the api's handles and the implementation they start ({@code job},
 * {@code calls}) may know each other. So nothing from the engine down takes part in a cycle. Also checked here:
 * bytes are copied between memory segments only through {@link SegmentCopy}.
 */
class LayeringTest {
    /** The packages a value type may use besides its own: the error factories and the kernels. */
    private static final List<String> VALUE_MAY_USE = List.of("dev.tutti.internal", "dev.tutti.type");
    /** The implementation that the api's handles start, which may know them. */
    private static final String[] STARTED = {"dev.tutti.job..", "dev.tutti.calls.."};

    private static JavaClass topLevel(final JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }

    /**
     * @return the top-level classes of {@code dev.tutti} that use (themselves or by a nested class) a package of the
     *         implementation, or another such class of {@code dev.tutti}: the handles, which hold or start the
     *         implementation or take part in what does
     */
    private static Set<String> handles(final JavaClasses classes) {
        final Set<String> out = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (final JavaClass c : classes) {
                if (!"dev.tutti".equals(c.getPackageName()) || out.contains(topLevel(c).getName())) {
                    continue;
                }
                for (final Dependency d : c.getDirectDependenciesFromSelf()) {
                    final JavaClass t = d.getTargetClass();
                    final String p = t.getPackageName();
                    final boolean implementation = p.startsWith("dev.tutti.") && VALUE_MAY_USE.stream()
                        .noneMatch(v -> p.equals(v) || p.startsWith(v + "."));
                    if (implementation || "dev.tutti".equals(p) && out.contains(topLevel(t).getName())) {
                        grew |= out.add(topLevel(c).getName());
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** The layer rule; {@code classes} are what it is checked on. */
    static EvaluationResult evaluate(final JavaClasses classes) {
        final Set<String> handles = handles(classes);
        final DescribedPredicate<JavaClass> api = DescribedPredicate.describe("the handles of dev.tutti",
            c -> "dev.tutti".equals(c.getPackageName()) && handles.contains(topLevel(c).getName()));
        final DescribedPredicate<JavaClass> values = DescribedPredicate.describe("the value types of dev.tutti",
            c -> "dev.tutti".equals(c.getPackageName()) && !handles.contains(topLevel(c).getName()));
        return Architectures.layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("channel").definedBy("dev.tutti.channel..")
            .layer("api").definedBy(api)
            .layer("job").definedBy("dev.tutti.job..")
            .layer("calls").definedBy("dev.tutti.calls..")
            .layer("check").definedBy("dev.tutti.check..")
            .layer("comm").definedBy("dev.tutti.comm..")
            .layer("coll").definedBy("dev.tutti.coll..")
            .layer("p2p").definedBy("dev.tutti.p2p..")
            .layer("transport").definedBy("dev.tutti.transport..")
            .layer("runtime").definedBy("dev.tutti.runtime..")
            .layer("internal").definedBy("dev.tutti.internal..")
            .layer("type").definedBy("dev.tutti.type..")
            .layer("values").definedBy(values)
            .whereLayer("channel").mayNotBeAccessedByAnyLayer()
            .whereLayer("api").mayOnlyBeAccessedByLayers("channel", "job", "calls")
            .whereLayer("job").mayOnlyBeAccessedByLayers("api")
            .whereLayer("calls").mayOnlyBeAccessedByLayers("api", "job")
            .whereLayer("check").mayOnlyBeAccessedByLayers("api", "job", "calls")
            .whereLayer("comm").mayOnlyBeAccessedByLayers("api", "job", "calls", "check")
            .whereLayer("coll").mayOnlyBeAccessedByLayers("api", "job", "calls", "check", "comm")
            .whereLayer("p2p").mayOnlyBeAccessedByLayers("api", "job", "calls", "check", "comm", "coll")
            .whereLayer("transport").mayOnlyBeAccessedByLayers("api", "job", "calls", "check", "comm", "coll", "p2p")
            .whereLayer("runtime").mayOnlyBeAccessedByLayers("api", "job", "calls", "check", "comm", "coll", "p2p",
                "transport")
            .whereLayer("internal").mayOnlyBeAccessedByLayers("channel", "api", "job", "calls", "check", "comm", "coll",
                "p2p", "transport", "runtime", "type", "values")
            .whereLayer("type").mayOnlyBeAccessedByLayers("api", "job", "calls", "check", "comm", "coll", "p2p",
                "transport", "values")
            .evaluate(classes);
    }

    /** The package rule: the packages below the api ({@code dev.tutti.*}, one slice each) use each other in no cycle. */
    static EvaluationResult evaluatePackageCycles(final JavaClasses classes) {
        return slices().matching("dev.tutti.(**)").namingSlices("$1").should().beFreeOfCycles().evaluate(classes);
    }

    /**
     * The class rule: top-level classes (with their nested classes) of different packages form no cycle, except the
     * api's handles with the implementation they start, whose uses of the api are not counted.
     */
    static EvaluationResult evaluateClassCycles(final JavaClasses classes) {
        final SliceAssignment byTopLevelClass = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass c) {
                return c.getPackageName().startsWith("dev.tutti") ? SliceIdentifier.of(topLevel(c).getName())
                    : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "top-level classes of dev.tutti";
            }
        };
        SliceRule rule = slices().assignedFrom(byTopLevelClass).should().beFreeOfCycles();
        final Set<String> packages = new TreeSet<>();
        classes.forEach(c -> packages.add(c.getPackageName()));
        for (final String p : packages) { // a cycle inside one package is that package's business
            rule = rule.ignoreDependency(resideInAPackage(p), resideInAPackage(p));
        }
        return rule.ignoreDependency(resideInAnyPackage(STARTED), resideInAPackage("dev.tutti")).evaluate(classes);
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
    void shouldHaveNoCycleBetweenPackagesBelowTheApi() {
        final EvaluationResult result = evaluatePackageCycles(mainClasses());
        assertFalse(result.hasViolation(), result.getFailureReport().toString());
    }

    @Test
    void shouldHaveNoCycleBetweenClassesOfDifferentPackages() {
        final EvaluationResult result = evaluateClassCycles(mainClasses());
        assertFalse(result.hasViolation(), result.getFailureReport().toString());
    }

    /** The cycle rules catch what they are for: two packages of the engine that use each other. */
    @Test
    void shouldCatchACycleBetweenPackages() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(Class.forName("dev.tutti.coll.PlantedUp"),
            Class.forName("dev.tutti.coll.algo.PlantedDown"));
        final String packages = evaluatePackageCycles(planted).getFailureReport().toString();
        assertTrue(packages.contains("PlantedUp") && packages.contains("PlantedDown"),
            "a cycle between coll and coll.algo went unnoticed: " + packages);
        final String classes = evaluateClassCycles(planted).getFailureReport().toString();
        assertTrue(classes.contains("PlantedUp") && classes.contains("PlantedDown"), classes);
    }

    /**
     * A cycle through the api is caught too, by both rules: an engine class that uses a handle (which uses the
     * engine) breaks the layers and closes a cycle; the same cycle with the implementation the handle starts is
     * the one allowed.
     */
    @Test
    void shouldCatchACycleThroughTheApi() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(Class.forName("dev.tutti.PlantedHandle"),
            Class.forName("dev.tutti.coll.PlantedEngine"), Class.forName("dev.tutti.job.PlantedStart"));
        final String classes = evaluateClassCycles(planted).getFailureReport().toString();
        assertTrue(classes.contains("PlantedEngine"), "an engine class in a cycle with the api went unnoticed: "
            + classes);
        assertFalse(classes.contains("PlantedStart"), "the entry point's own implementation was refused: " + classes);
        final String layers = evaluate(planted).getFailureReport().toString();
        assertTrue(layers.contains("PlantedEngine"), "an engine class using a handle went unnoticed: " + layers);
        assertFalse(layers.contains("PlantedStart"), layers);
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
