package io.privacygateway.itests.support;

import io.privacygateway.mechanisms.random.RandomBits;
import io.privacygateway.mechanisms.random.SecureRandomBits;
import io.privacygateway.mechanisms.random.SeededRandomBits;
import io.privacygateway.mechanisms.runtime.ReleaseResult;
import io.privacygateway.mechanisms.runtime.WindowRelease;
import io.privacygateway.topology.release.CentralReleaser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * <b>Test only, never for production:</b> a {@link CentralReleaser} whose noise is a pure function of the
 * workload version and the window's counts (a {@link SeededRandomBits} seeded with the SHA-256 of the content
 * hash and the counts), so equal counts give bit-identical central answers. Fault tests use it to compare the
 * answers of a gateway that was killed, scaled or cut off from its broker with an offline oracle; the noise is
 * predictable and therefore gives no privacy at all.
 */
public final class SeededCentralReleaser implements CentralReleaser {
    public static final SeededCentralReleaser INSTANCE = new SeededCentralReleaser();

    private SeededCentralReleaser() {}

    @Override
    public ReleaseResult release(WindowRelease.Central release, WindowRelease.Window window) {
        return release.release(window, new SeededRandomBits(seed(release.workload().contentHash(), window.state())));
    }

    /** The running totals' noise (and nothing else) comes from {@link java.security.SecureRandom}. */
    @Override
    public RandomBits secret() {
        return new SecureRandomBits();
    }

    /** The seed of a window's noise: the first 8 bytes of SHA-256(content hash, counts). */
    public static long seed(String contentHash, long[] counts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(contentHash.getBytes(StandardCharsets.UTF_8));
            ByteBuffer b = ByteBuffer.allocate(8 * counts.length);
            for (long c : counts) {
                b.putLong(c);
            }
            d.update(b.array());
            return ByteBuffer.wrap(d.digest()).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
