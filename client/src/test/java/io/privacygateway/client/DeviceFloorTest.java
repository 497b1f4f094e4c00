package io.privacygateway.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.privacygateway.mechanisms.device.DeviceWorkload;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The SDK stands on the device floors only (docs/architecture.md): its classes depend on the JDK, {@code core} and
 * {@code device} and nothing else: no Kafka, Avro, Jackson, registry client, {@code java.net.http}, JMX, nor the
 * gateway's mathematics. (The Maven dependencies already forbid most of it; this checks the compiled classes.)
 */
class DeviceFloorTest {
    private static JavaClasses moduleOf(Class<?> marker) throws IOException, URISyntaxException {
        Path where = Paths.get(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
        return Files.isDirectory(where) ? new ClassFileImporter().importPath(where)
                : new ClassFileImporter().importJar(new JarFile(where.toFile()));
    }

    @Test
    void theSdkDependsOnTheJdkCoreAndDeviceOnly() throws Exception {
        JavaClasses sdk = moduleOf(Client.class);
        Set<String> below = new HashSet<>();
        below.addAll(moduleOf(CanonicalForm.class).stream().map(JavaClass::getName).collect(Collectors.toSet()));
        below.addAll(moduleOf(DeviceWorkload.class).stream().map(JavaClass::getName).collect(Collectors.toSet()));
        below.addAll(sdk.stream().map(JavaClass::getName).collect(Collectors.toSet()));
        assertThat(sdk.size()).isGreaterThan(10);
        DescribedPredicate<JavaClass> allowed = DescribedPredicate.describe(
                "the JDK (java.*, except java.net.http and java.lang.management) or core or device", c -> {
                    JavaClass t = c.isArray() ? c.getBaseComponentType() : c;
                    String p = t.getPackageName();
                    boolean jdk = p.startsWith("java.") && !p.startsWith("java.net.http")
                            && !p.startsWith("java.lang.management");
                    return t.isPrimitive() || jdk || below.contains(t.getName());
                });
        classes().should().onlyDependOnClassesThat(allowed)
                .because("the SDK must run on a phone: Android has no java.net.http, no JMX, no Kafka client")
                .check(sdk);
    }

    /**
     * The SDK draws no number from {@code java.util.Random} (a linear congruential generator): its secret randomness
     * comes from {@code SecureRandomBits}, and even the public jitter of the resend backoff comes from
     * {@code SecureRandom}, as the TypeScript SDK's comes from {@code crypto}.
     */
    @Test
    void theSdkNeverUsesJavaUtilRandom() throws Exception {
        noClasses().should().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
                .because("timing noise too comes from SecureRandom, uniform with the TypeScript SDK")
                .check(moduleOf(Client.class));
    }
}
