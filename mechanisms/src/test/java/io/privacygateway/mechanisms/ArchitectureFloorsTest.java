package io.privacygateway.mechanisms;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The floors of the house (docs/architecture.md), checked on the compiled classes of each module, wherever the
 * build put them (a reactor's {@code target/classes} or an installed jar):
 * <ol>
 *   <li>{@code core} (spec, canonical form, parameters, exact randomness, public coins, budget rule) depends on the
 *       JDK only;
 *   <li>{@code device} (the randomizers) depends on the JDK, core and two pure-Java Commons libraries only: no device
 *       class reaches the gateway's mathematics;
 *   <li>no device class declares an estimator's method ({@code estimate}, {@code variances}, {@code queryVariance},
 *       {@code queryVariances}, {@code covarianceTimes}, {@code expectedLevelMean}): the estimates, their variances and
 *       the decoders live with the gateway ({@code *Estimator} in {@code mechanisms}), which reads the protocols'
 *       public parameters;
 *   <li>inside the gateway's module, the mathematics never reaches up into the analysis tools (planner, auditor,
 *       poisoning bounds).
 * </ol>
 * The Maven module graph already refuses most of these at compile time; this test also catches what a changed
 * dependency list would let through, and names the offending class. Constants inlined by the compiler leave no trace in
 * bytecode: for them the module wall (core cannot see a gateway class to name it) is the check.
 */
class ArchitectureFloorsTest {
    private static JavaClasses core;
    private static JavaClasses device;
    private static JavaClasses gateway;
    private static Set<String> coreNames;
    private static Set<String> deviceNames;

    @BeforeAll
    static void importModules() {
        core = importModuleOf(CanonicalForm.class);
        device = importModuleOf(LocalProtocol.class);
        gateway = importModuleOf(ResolvedWorkload.class);
        coreNames = core.stream().map(JavaClass::getName).collect(Collectors.toSet());
        deviceNames = device.stream().map(JavaClass::getName).collect(Collectors.toSet());
    }

    /** Imports exactly the classes of the module (directory or jar) that holds {@code marker}. */
    private static JavaClasses importModuleOf(Class<?> marker) {
        try {
            Path where = Paths.get(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isDirectory(where) ? new ClassFileImporter().importPath(where)
                    : new ClassFileImporter().importJar(new JarFile(where.toFile()));
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theModulesAreWhereTheFloorsSayAndNotEmpty() {
        assertThat(core.size()).isGreaterThan(50);
        assertThat(device.size()).isGreaterThan(50);
        assertThat(gateway.size()).isGreaterThan(100);
        assertThat(deviceNames).doesNotContainAnyElementsOf(coreNames);
    }

    @Test
    void coreDependsOnTheJdkOnly() {
        classes().should().onlyDependOnClassesThat(jdkOr(coreNames, "core"))
                .because("the ground floor must run on any JVM, Android included, with nothing else on the class path")
                .check(core);
    }

    @Test
    void deviceDependsOnCoreAndPureJavaLibrariesOnly() {
        Set<String> below = new java.util.HashSet<>(coreNames);
        below.addAll(deviceNames);
        DescribedPredicate<JavaClass> allowed = jdkOr(below, "core or device").or(
                DescribedPredicate.describe("Commons RNG or Commons Numbers", c -> c.getPackageName().startsWith(
                        "org.apache.commons.rng") || c.getPackageName().startsWith("org.apache.commons.numbers")));
        classes().should().onlyDependOnClassesThat(allowed)
                .because("a device carries its randomizers, never the gateway's estimators, releases or planner")
                .check(device);
    }

    /** The names of the gateway's estimator methods, which no device class may declare. */
    static final String ESTIMATOR_METHODS = "estimate|variances|queryVariance|queryVariances|covarianceTimes"
            + "|expectedLevelMean";

    @Test
    void noDeviceClassDeclaresAnEstimatorMethod() {
        noMethods().should().haveNameMatching(ESTIMATOR_METHODS)
                .because("a device carries its randomizers and their aggregation, never the estimates, variances or"
                        + " decoders of the gateway (docs/architecture.md)")
                .check(device);
    }

    @Test
    void theGatewayMathematicsNeverReachesUpIntoTheAnalysisTools() {
        noClasses().that().resideOutsideOfPackages("..planner..", "..audit..", "..robustness..")
                .should().dependOnClassesThat().resideInAnyPackage("..planner..", "..audit..", "..robustness..")
                .because("the planner, the auditor and the poisoning bounds sit above the mathematics they analyse")
                .check(gateway);
    }

    private static DescribedPredicate<JavaClass> jdkOr(Set<String> names, String what) {
        return DescribedPredicate.describe("the JDK (java.*) or " + what, c -> c.getPackageName().startsWith("java.")
                || c.getPackageName().equals("java") || names.contains(c.getName())
                || (c.isArray() && (c.getBaseComponentType().getPackageName().startsWith("java.")
                        || c.getBaseComponentType().isPrimitive() || names.contains(c.getBaseComponentType().getName())))
                || c.isPrimitive());
    }
}
