package io.privacygateway.schemas.wire;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.util.ClassSecurityValidator;

/**
 * Tells Avro which generated classes it may load by name.
 *
 * <p>Since 1.11.4/1.12.1 Avro refuses to load a class named by a schema unless a
 * {@link ClassSecurityValidator} predicate trusts it ("Forbidden ...! This class is not trusted to
 * be included in Avro schemas"), and {@code SpecificData} loads the generated class of every
 * record it reads by the reader schema's full name. This adds one predicate to the JVM-wide
 * validator (composed with whatever was there, once) that trusts the classes of the packages
 * registered here. {@link WireFormat} registers the project's generated package
 * ({@value #PROJECT_PACKAGE}); {@code AvroDeserializer} registers the package of the class it is
 * configured to read into. Writer schemas from the registry are never trusted by this: resolution
 * instantiates the reader's classes only.
 */
public final class AvroClassTrust {
    private AvroClassTrust() {}

    /** The package of the classes generated from {@code src/main/avro}. */
    public static final String PROJECT_PACKAGE = "io.privacygateway.schemas.avro";

    private static final Set<String> PACKAGES = ConcurrentHashMap.newKeySet();
    private static boolean installed;

    static {
        trustPackage(PROJECT_PACKAGE);
    }

    /** Trusts the classes of exactly this package (not its sub-packages). */
    public static synchronized void trustPackage(String packageName) {
        PACKAGES.add(packageName);
        if (!installed) {
            ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
            ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous,
                    type -> PACKAGES.contains(type.getPackageName())));
            installed = true;
        }
    }

    /** Trusts the package of {@code type} (and so its nested and sibling generated classes). */
    public static void trustPackageOf(Class<?> type) {
        trustPackage(type.getPackageName());
    }

    /** Whether classes of {@code packageName} are trusted by this class. */
    public static boolean isTrusted(String packageName) {
        return PACKAGES.contains(packageName);
    }
}
