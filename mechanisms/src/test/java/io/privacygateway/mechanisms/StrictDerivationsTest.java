package io.privacygateway.mechanisms;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 8: everything a device and the gateway must compute identically (a randomizer's parameters, the
 * meaning of a payload, the per-level ε of chaining, the nets, the public coins, the budget) uses only functions whose
 * result is specified to the bit: the wire specification ({@code docs/wire-format.md} §0) requires fdlibm, i.e.
 * {@link StrictMath}, for the transcendental ones. {@link Math}'s versions may differ by an ulp from platform to
 * platform (HotSpot uses intrinsics), so a device and a gateway on different platforms could disagree at a near-tie
 * (OLH's {@code g = round(e^ε + 1)}, subset selection's d, the heavy hitters' t, the piecewise window).
 *
 * <p>The rule covers whole packages, gateway-side estimators included (they use StrictMath too; it costs nothing and
 * needs no allow-list there); what those packages call elsewhere is checked transitively, with a short, justified
 * allow-list of gateway-only methods. {@code sqrt}, {@code abs}, {@code floor}, {@code ceil}, {@code rint}, {@code round},
 * {@code min}, {@code max}, {@code fma}, {@code scalb}, {@code ulp}, {@code nextUp} and the exact integer functions are
 * specified exactly by IEEE 754 / the JLS and may stay on {@link Math}.
 */
class StrictDerivationsTest {
    /** The packages whose results a device and the gateway must compute identically. */
    static final String[] DEVICE_SIDE = {
        "io.privacygateway.mechanisms.local..",
        "io.privacygateway.mechanisms.coins..",
        "io.privacygateway.mechanisms.workload..",
        "io.privacygateway.mechanisms.budget..",
        "io.privacygateway.mechanisms.nets..",
        "io.privacygateway.mechanisms.param..",
        "io.privacygateway.mechanisms.pipeline..",
        "io.privacygateway.mechanisms.runtime..",
        "io.privacygateway.mechanisms.codec..",
        "io.privacygateway.mechanisms.linalg..",
        "io.privacygateway.mechanisms.random..",
    };

    /** {@link Math}'s functions that are allowed an error of an ulp or more, so not reproducible across platforms. */
    static final Set<String> NON_EXACT = Set.of("exp", "expm1", "log", "log10", "log1p", "pow", "sinh", "cosh", "tanh",
            "cbrt", "hypot", "sin", "cos", "tan", "asin", "acos", "atan", "atan2");

    static final DescribedPredicate<JavaAccess<?>> NON_STRICT = DescribedPredicate.describe(
            "a non-exact java.lang.Math function " + new TreeSet<>(NON_EXACT) + " (use StrictMath, fdlibm)",
            access -> access.getTargetOwner().isEquivalentTo(Math.class) && NON_EXACT.contains(access.getName()));

    static ArchRule strictIn(String... packages) {
        return noClasses().that().resideInAnyPackage(packages).should().accessTargetWhere(NON_STRICT)
                .because("a device and the gateway must derive the same parameters on every platform"
                        + " (docs/wire-format.md §0)");
    }

    /**
     * Gateway-only code outside the device-side packages that device-side code calls (directly or not) and that may
     * use {@link Math}: each entry says why it never determines what a device computes.
     */
    static final Map<String, String> GATEWAY_ONLY = Map.of(
            "io.privacygateway.mechanisms.release.ErrorBars.compute",
            "the published error bars of an answer, computed by the gateway after decoding (devices compute none)");

    private static final String RELEASE_STEP = "the gateway's release step (a window's answer from its exact"
            + " aggregate: gateway noise, parameters and error bars), never run by a device";

    /**
     * Device-side classes whose calls elsewhere are gateway-only as a whole (the package rule still covers their own
     * code), each with the reason.
     */
    static final Map<String, String> GATEWAY_ONLY_CLASSES = Map.of(
            "io.privacygateway.mechanisms.runtime.CentralWorkload",
            "a central workload's release machinery (the gateway's noise and its parameters); a central-mode device"
                    + " sends its value as is and uses only the budget's slots",
            "io.privacygateway.mechanisms.runtime.WideReleases",
            "builds a central wide workload's release (MWEM, worst-case chaining, certified synthetic data) for"
                    + " CentralWorkload: gateway noise and its parameters, never computed by a device",
            "io.privacygateway.mechanisms.runtime.CountsReleases",
            "builds a materialised central workload's release for CentralWorkload: gateway noise and its parameters",
            "io.privacygateway.mechanisms.runtime.WindowRelease",
            RELEASE_STEP,
            "io.privacygateway.mechanisms.runtime.WindowRelease$Central", RELEASE_STEP,
            "io.privacygateway.mechanisms.runtime.WindowRelease$Counts", RELEASE_STEP,
            "io.privacygateway.mechanisms.runtime.WindowRelease$Wide", RELEASE_STEP,
            "io.privacygateway.mechanisms.runtime.WindowRelease$Local",
            "the gateway's release of a local window: estimation, error bars and the amplified guarantee, all after"
                    + " decoding (devices compute none)");

    private static JavaClasses main;

    @BeforeAll
    static void importMain() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.privacygateway.mechanisms");
    }

    @Test
    void deviceSideDerivationsCallOnlyStrictFunctions() {
        assertThat(main.contain("io.privacygateway.mechanisms.local.fo.OptimizedLocalHashing")).isTrue();
        strictIn(DEVICE_SIDE).check(main);
    }

    /**
     * Nor through a helper elsewhere: every method that device-side code reaches by calls and references (followed
     * transitively through the rest of {@code io.privacygateway.mechanisms}, to the declared target of each call)
     * avoids the non-exact functions too, except the listed gateway-only methods.
     */
    @Test
    void nothingDeviceSideCodeReachesElsewhereCallsANonStrictFunction() {
        Map<JavaCodeUnit, String> reachedFrom = new HashMap<>();
        Deque<JavaCodeUnit> queue = new ArrayDeque<>();
        for (JavaClass c : main) {
            if (deviceSide(c) && !GATEWAY_ONLY_CLASSES.containsKey(c.getName())) {
                for (JavaCodeUnit u : c.getCodeUnits()) {
                    follow(u, reachedFrom, queue);
                }
            }
        }
        List<String> violations = new ArrayList<>();
        Set<String> allowedSeen = new TreeSet<>();
        while (!queue.isEmpty()) {
            JavaCodeUnit u = queue.poll();
            String name = u.getOwner().getName() + "." + u.getName();
            for (JavaAccess<?> a : u.getAccessesFromSelf()) {
                if (NON_STRICT.test(a)) {
                    if (GATEWAY_ONLY.containsKey(name)) {
                        allowedSeen.add(name);
                    } else {
                        violations.add(a.getDescription() + ", reached from " + reachedFrom.get(u));
                    }
                }
            }
            follow(u, reachedFrom, queue);
        }
        assertThat(violations).as("non-strict functions reached from device-side code").isEmpty();
        // the allow-list stays honest: every entry is still needed
        assertThat(allowedSeen).isEqualTo(GATEWAY_ONLY.keySet());
    }

    private static boolean deviceSide(JavaClass c) {
        for (String p : DEVICE_SIDE) {
            String prefix = p.substring(0, p.length() - 2);
            if (c.getPackageName().equals(prefix) || c.getPackageName().startsWith(prefix + ".")) {
                return true;
            }
        }
        return false;
    }

    /** Queues the project methods outside the device-side packages that {@code u} calls or refers to. */
    private static void follow(JavaCodeUnit u, Map<JavaCodeUnit, String> reachedFrom, Deque<JavaCodeUnit> queue) {
        for (JavaAccess<?> a : u.getAccessesFromSelf()) {
            if (a.getTarget() instanceof AccessTarget.CodeUnitAccessTarget t
                    && t.getOwner().getPackageName().startsWith("io.privacygateway.mechanisms")
                    && !deviceSide(t.getOwner())) {
                t.resolveMember().ifPresent(m -> {
                    if (reachedFrom.putIfAbsent(m, u.getFullName()) == null) {
                        queue.add(m);
                    }
                });
            }
        }
    }

    /** The rule sees calls and method references, and leaves exact functions and StrictMath alone. */
    @Test
    void theRuleCatchesACallAndAReference() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.privacygateway.mechanisms.archfixture");
        EvaluationResult r = strictIn("io.privacygateway.mechanisms.archfixture..").evaluate(fixture);
        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).hasSize(2)
                .anySatisfy(d -> assertThat(d).contains("Math.exp(double)").contains("range"))
                .anySatisfy(d -> assertThat(d).contains("Math.log(double)").contains("logarithm"));
    }
}
