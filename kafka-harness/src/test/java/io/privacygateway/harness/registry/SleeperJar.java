package io.privacygateway.harness.registry;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;

/** Compiles a one-class program and packs it as an executable jar, for start-up failure tests. */
final class SleeperJar {
    private SleeperJar() {
    }

    static Path build(Path source, Path dir) throws IOException {
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), source.toString());
        if (rc != 0) {
            throw new IOException("javac failed on " + source);
        }
        String className = source.getFileName().toString().replace(".java", "");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, className);
        Path jar = dir.resolve(className + ".jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out, manifest)) {
            jos.putNextEntry(new JarEntry(className + ".class"));
            jos.write(Files.readAllBytes(dir.resolve(className + ".class")));
            jos.closeEntry();
        }
        return jar;
    }
}
