package dev.tutti;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import dev.tutti.internal.GroupAccess;
import dev.tutti.internal.SegmentCopy;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The architecture of STYLE.md §3.1 and docs/architecture.md, checked on the compiled classes of the main sources (so
 * fully-qualified references, lambdas and nested classes count as much as imports).
 *
 * <p>Layers, top to bottom: channel → job → calls → check → comm → coll → p2p → transport → runtime → type →
 * trace → api → internal → kernel, each using only layers below it. Inside coll: the door ({@code coll.door}) → the
 * on-host layer ({@code coll.host}) → the intercommunicator collectives ({@code coll.inter}) → the algorithms
 * ({@code coll.algo}) → the engine ({@code coll}) → the slots of persistent calls ({@code coll.slot}), which know no
 * schedule. {@code channel} (the alltoall channels, built on the public api alone) is the top, which nothing uses,
 * and it may use only the api, {@code internal} and the Flight Recorder events of {@code trace}. {@code job} starts
 * ranks and is the implementation the api finds through {@code ServiceLoader} ({@code internal.Provider});
 * {@code calls} implements the api's communicator handles. The api ({@code dev.tutti}: interfaces, values,
 * exceptions and the entry point's static methods) uses nothing of the engine: only its support, {@code internal}
 * (error factories, settings, the provider interface, raw reductions), and the pure arithmetic of
 * {@code type.kernel}.
 *
 * <p>Cycles: no packages use each other, directly or not, and no classes of different packages form a cycle, with
 * one exception: the api and its support ({@code internal}, whose factories build the api's exceptions and whose
 * provider returns its handles) may know each other. So nothing from the engine down takes part in a cycle. Also
 * checked here: bytes are copied between memory segments only through {@link SegmentCopy}.
 */
class LayeringTest {
    /** The packages in the layer order, top first; a subpackage belongs to its parent's layer unless listed. */
    private static final String[][] LAYERS = {
        {"channel", "dev.tutti.channel.."},
        {"job", "dev.tutti.job.."},
        {"calls", "dev.tutti.calls.."},
        {"check", "dev.tutti.check.."},
        {"comm", "dev.tutti.comm.."},
        {"door", "dev.tutti.coll.door.."},
        {"host", "dev.tutti.coll.host.."},
        {"inter", "dev.tutti.coll.inter.."},
        {"algo", "dev.tutti.coll.algo.."},
        {"coll", "dev.tutti.coll"},
        {"slot", "dev.tutti.coll.slot.."},
        {"p2p", "dev.tutti.p2p.."},
        {"transport", "dev.tutti.transport.."},
        {"runtime", "dev.tutti.runtime.."},
        {"type", "dev.tutti.type"},
        {"trace", "dev.tutti.trace.."},
        {"api", "dev.tutti"},
        {"internal", "dev.tutti.internal.."},
        {"kernel", "dev.tutti.type.kernel.."},
    };

    private static JavaClass topLevel(final JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) {
            t = t.getEnclosingClass().get();
        }
        return t;
    }

    /** The layer rule; {@code classes} are what it is checked on. */
    static EvaluationResult evaluate(final JavaClasses classes) {
        Architectures.LayeredArchitecture arch = Architectures.layeredArchitecture()
            .consideringOnlyDependenciesInLayers();
        for (final String[] layer : LAYERS) {
            arch = arch.layer(layer[0]).definedBy(layer[1]);
        }
        arch = arch.whereLayer("channel").mayNotBeAccessedByAnyLayer();
        for (int i = 1; i < LAYERS.length; i++) {
            final List<String> above = new java.util.ArrayList<>();
            for (int j = 0; j < i; j++) {
                above.add(LAYERS[j][0]);
            }
            if ("api".equals(LAYERS[i][0])) {
                above.add("internal"); // the one pair that may know each other: the api and its support
            }
            if (!"internal".equals(LAYERS[i][0]) && !"api".equals(LAYERS[i][0]) && !"trace".equals(LAYERS[i][0])) {
                above.remove("channel"); // channels reach only the api, its support and the trace events
            }
            arch = above.isEmpty() ? arch.whereLayer(LAYERS[i][0]).mayNotBeAccessedByAnyLayer()
                : arch.whereLayer(LAYERS[i][0]).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
        }
        return arch.evaluate(classes);
    }

    /**
     * The package rule: the packages of {@code dev.tutti} (the api included, one slice each) use each other in no
     * cycle, except the api with its support ({@code internal}'s uses of the api are not counted).
     */
    static EvaluationResult evaluatePackageCycles(final JavaClasses classes) {
        final SliceAssignment byPackage = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(final JavaClass c) {
                final String p = c.getPackageName();
                return "dev.tutti".equals(p) || p.startsWith("dev.tutti.") ? SliceIdentifier.of(p)
                    : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "packages of dev.tutti";
            }
        };
        return slices().assignedFrom(byPackage).should().beFreeOfCycles()
            .ignoreDependency(resideInAPackage("dev.tutti.internal"), resideInAPackage("dev.tutti"))
            .evaluate(classes);
    }

    /**
     * The class rule: top-level classes (with their nested classes) of different packages form no cycle, except the
     * api with its support, whose uses of the api are not counted.
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
        return rule.ignoreDependency(resideInAPackage("dev.tutti.internal"), resideInAPackage("dev.tutti"))
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
     * The slots sit below the engine that runs them: a class of {@code coll.slot} that uses a run breaks the layers
     * (and closes a cycle between the two packages).
     */
    @Test
    void shouldCatchASlotClassThatUsesTheEngine() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(
            Class.forName("dev.tutti.coll.slot.PlantedSlotUp"), dev.tutti.coll.ScheduleRun.class);
        final String layers = evaluate(planted).getFailureReport().toString();
        assertTrue(layers.contains("PlantedSlotUp"), "a slot class using the engine went unnoticed: " + layers);
    }

    /**
     * A cycle through the api is caught too, by every rule: an api class that reaches the engine breaks the layers
     * and closes a cycle with an engine class that uses the api. The api with its support is the one pair allowed.
     */
    @Test
    void shouldCatchACycleThroughTheApi() throws ClassNotFoundException {
        final JavaClasses planted = new ClassFileImporter().importClasses(Class.forName("dev.tutti.PlantedHandle"),
            Class.forName("dev.tutti.coll.PlantedEngine"));
        final String classes = evaluateClassCycles(planted).getFailureReport().toString();
        assertTrue(classes.contains("PlantedEngine"), "an engine class in a cycle with the api went unnoticed: "
            + classes);
        final String packages = evaluatePackageCycles(planted).getFailureReport().toString();
        assertTrue(packages.contains("PlantedEngine"), "a package cycle through the api went unnoticed: " + packages);
        final String layers = evaluate(planted).getFailureReport().toString();
        assertTrue(layers.contains("PlantedHandle"), "an api class using the engine went unnoticed: " + layers);
        final JavaClasses allowed = new ClassFileImporter().importClasses(Group.class, GroupAccess.class);
        assertFalse(evaluateClassCycles(allowed).hasViolation(), "the api with its support was refused");
        assertFalse(evaluatePackageCycles(allowed).hasViolation(), "the api with its support was refused");
        final String allowedLayers = evaluate(allowed).getFailureReport().toString();
        assertFalse(allowedLayers.contains("GroupAccess"), "the api with its support was refused: " + allowedLayers);
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
            dev.tutti.calls.CommImpl.class, dev.tutti.p2p.P2pEngine.class);
        final EvaluationResult result = evaluate(planted);
        assertTrue(result.hasViolation(), "a p2p class using the calls layer went unnoticed");
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
