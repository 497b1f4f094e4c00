package io.privacygateway.mechanisms.central.wide;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No class of the wide and worst-case packages draws randomness except through {@link ReleaseDraws} (whose
 * production implementation calls only the exact samplers): no {@code java.util.Random}, {@code Math.random},
 * floating-point Gaussians or doubles, and every class that receives secret {@code RandomBits} hands them straight
 * to {@code ReleaseDraws.exact}. The exceptions are {@code WideReference}, whose seeded generator builds public
 * planning data, and the interface {@code WideRelease}, which only declares the release.
 */
class SecretRandomnessSourceTest {
    private static final List<String> FORBIDDEN = List.of("java.util.Random", "Math.random", "nextGaussian",
            "nextDouble", "ThreadLocalRandom", "SplittableRandom", "SecureRandom", ".nextLong(", "nextInt(");

    @Test
    void onlyTheExactSamplersDrawSecretRandomness() throws IOException {
        Path main = Path.of("src/main/java/io/privacygateway/mechanisms/central");
        List<Path> files;
        try (Stream<Path> s = Stream.concat(Files.list(main.resolve("wide")), Files.list(main.resolve("worstcase")))) {
            files = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertThat(files).hasSizeGreaterThan(15);
        for (Path f : files) {
            String name = f.getFileName().toString();
            String text = Files.readString(f);
            if (name.equals("WideReference.java")) {
                assertThat(text).doesNotContain("RandomBits secret").doesNotContain("ReleaseDraws");
                continue;
            }
            for (String token : FORBIDDEN) {
                assertThat(text).as("%s uses %s", name, token).doesNotContain(token);
            }
            if (name.equals("WideRelease.java")) { // the interface only declares the release: the bits go nowhere
                long uses = text.lines().filter(l -> !l.trim().startsWith("*") && !l.trim().startsWith("/"))
                        .filter(l -> l.contains("secret")).count();
                assertThat(uses).as("WideRelease only declares release(counts, secret)").isEqualTo(1);
                assertThat(text).contains("WideAnswer release(MarginalCounts counts, RandomBits secret);");
                continue;
            }
            if (text.contains("RandomBits secret") && !name.equals("ReleaseDraws.java")) {
                assertThat(text).as("%s hands its secret bits to ReleaseDraws.exact", name)
                        .contains("ReleaseDraws.exact(secret)");
            }
        }
    }
}
