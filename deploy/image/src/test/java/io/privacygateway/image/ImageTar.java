package io.privacygateway.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * An image tar as {@code jib:buildTar} writes it (Docker's {@code docker save} layout: {@code manifest.json},
 * the config JSON and one gzipped tar per layer), read without Docker.
 */
final class ImageTar {
    /** One file system entry of the image, after all layers are applied. */
    record Entry(String path, int mode, long size, boolean directory, boolean symlink, String linkTarget, long uid,
            long gid) {
        boolean executable() {
            return (mode & 0111) != 0;
        }
    }

    final JsonNode manifest;
    final JsonNode config;
    final List<String> layers;
    final Map<String, byte[]> raw = new LinkedHashMap<>();
    /** Contents of the image's small files (up to 64 KiB), filled by {@link #fileSystem}. */
    final Map<String, byte[]> smallFiles = new LinkedHashMap<>();

    private ImageTar(JsonNode manifest, JsonNode config, List<String> layers) {
        this.manifest = manifest;
        this.config = config;
        this.layers = layers;
    }

    static Path location() {
        String p = System.getProperty("privacygateway.image.tar");
        if (p == null) {
            throw new IllegalStateException("privacygateway.image.tar is not set (run through Maven: mvn verify)");
        }
        return Path.of(p);
    }

    /** Reads the tar's small JSON members; layers stay in the tar. */
    static ImageTar open(Path tar) throws IOException {
        Map<String, byte[]> small = new LinkedHashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tar)))) {
            TarArchiveEntry e;
            while ((e = in.getNextEntry()) != null) {
                if (e.getName().endsWith(".json")) {
                    small.put(e.getName(), in.readAllBytes());
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(small.get("manifest.json"));
        if (!manifest.isArray() || manifest.size() != 1) {
            throw new IOException("manifest.json must describe exactly one image: " + manifest);
        }
        JsonNode config = json.readTree(small.get(manifest.get(0).get("Config").asText()));
        List<String> layers = new ArrayList<>();
        manifest.get(0).get("Layers").forEach(l -> layers.add(l.asText()));
        ImageTar t = new ImageTar(manifest, config, layers);
        t.raw.putAll(small);
        return t;
    }

    /** Visits each layer, in order: its name in the tar and its gzipped tar stream. */
    interface LayerVisitor {
        void visit(String name, InputStream gzippedTar) throws IOException;
    }

    void eachLayer(Path tar, LayerVisitor visitor) throws IOException {
        for (String layer : layers) {
            try (TarArchiveInputStream in = new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tar)))) {
                TarArchiveEntry e;
                boolean found = false;
                while ((e = in.getNextEntry()) != null) {
                    if (e.getName().equals(layer)) {
                        visitor.visit(layer, in);
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    throw new IOException("layer " + layer + " is not in " + tar);
                }
            }
        }
    }

    /** sha256 of each layer's uncompressed tar, in order (what the config's rootfs.diff_ids must be). */
    List<String> diffIds(Path tar) throws IOException {
        List<String> out = new ArrayList<>();
        eachLayer(tar, (name, gz) -> {
            MessageDigest d = sha256();
            try (DigestInputStream din = new DigestInputStream(new GZIPInputStream(nonClosing(gz)), d)) {
                din.transferTo(OutputStreamNull.INSTANCE);
            }
            out.add("sha256:" + HexFormat.of().formatHex(d.digest()));
        });
        return out;
    }

    /** The image's file system: every path (absolute, without a trailing slash) after all layers. */
    Map<String, Entry> fileSystem(Path tar) throws IOException {
        Map<String, Entry> fs = new LinkedHashMap<>();
        eachLayer(tar, (name, gz) -> {
            try (TarArchiveInputStream in = new TarArchiveInputStream(new GZIPInputStream(nonClosing(gz)))) {
                TarArchiveEntry e;
                while ((e = in.getNextEntry()) != null) {
                    String p = path(e.getName());
                    if (p.substring(p.lastIndexOf('/') + 1).startsWith(".wh.")) {
                        throw new IOException("whiteout " + p + " in " + name + ": not expected in an image built from scratch");
                    }
                    fs.put(p, new Entry(p, e.getMode() & 07777, e.getSize(), e.isDirectory(), e.isSymbolicLink(),
                            e.isSymbolicLink() ? e.getLinkName() : null, e.getLongUserId(), e.getLongGroupId()));
                    if (e.isFile() && e.getSize() <= 65536) {
                        smallFiles.put(p, in.readAllBytes());
                    } else {
                        smallFiles.remove(p);
                    }
                }
            }
        });
        return fs;
    }

    /** Extracts every layer, in order, into {@code root} (file modes kept; owners are the caller's). */
    void extract(Path tar, Path root) throws IOException {
        Files.createDirectories(root);
        eachLayer(tar, (name, gz) -> {
            try (TarArchiveInputStream in = new TarArchiveInputStream(new GZIPInputStream(nonClosing(gz)))) {
                TarArchiveEntry e;
                List<Map.Entry<Path, Integer>> dirModes = new ArrayList<>();
                while ((e = in.getNextEntry()) != null) {
                    Path target = root.resolve(path(e.getName()).substring(1)).normalize();
                    if (!target.startsWith(root)) {
                        throw new IOException("entry outside the image root: " + e.getName());
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(target);
                        dirModes.add(Map.entry(target, e.getMode()));
                    } else if (e.isSymbolicLink()) {
                        Files.createDirectories(target.getParent());
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                    } else if (e.isFile()) {
                        Files.createDirectories(target.getParent());
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(target, permissions(e.getMode()));
                    } else {
                        throw new IOException("unexpected entry type in " + name + ": " + e.getName());
                    }
                }
                for (Map.Entry<Path, Integer> d : dirModes) {
                    Files.setPosixFilePermissions(d.getKey(), permissions(d.getValue()));
                }
            }
        });
        // mount points a container runtime provides
        for (String dir : List.of("proc", "dev", "sys")) {
            Files.createDirectories(root.resolve(dir));
        }
    }

    static String path(String name) {
        String p = name.startsWith("./") ? name.substring(1) : name;
        p = p.startsWith("/") ? p : "/" + p;
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) {
                s.add(order[i]);
            }
        }
        return s;
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InputStream nonClosing(InputStream in) {
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() {
                // the outer tar stream stays open
            }
        };
    }

    private static final class OutputStreamNull extends java.io.OutputStream {
        static final OutputStreamNull INSTANCE = new OutputStreamNull();

        @Override
        public void write(int b) {}

        @Override
        public void write(byte[] b, int off, int len) {}
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
