package io.privacygateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The resend law: d = min(cap, base·2^(n−1)), delay = d/2 + u·d/2, never below Retry-After. */
class BackoffTest {
    final Backoff b = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60));

    @Test
    void theDelayDoublesFromHalfToAllOfTheBoundUpToTheCap() {
        assertThat(b.delayMillis(1, 0.0, 0)).isEqualTo(500);
        assertThat(b.delayMillis(1, 0.5, 0)).isEqualTo(750);
        assertThat(b.delayMillis(1, 0.999_999, 0)).isEqualTo(999);
        assertThat(b.delayMillis(2, 0.0, 0)).isEqualTo(1_000);
        assertThat(b.delayMillis(3, 0.25, 0)).isEqualTo(2_500);
        assertThat(b.delayMillis(6, 0.0, 0)).isEqualTo(16_000);
        assertThat(b.delayMillis(7, 0.0, 0)).isEqualTo(30_000); // 64 s capped at 60 s
        assertThat(b.delayMillis(1_000, 0.5, 0)).isEqualTo(45_000);
        assertThat(b.delayMillis(Integer.MAX_VALUE, 0.0, 0)).isEqualTo(30_000);
    }

    @Test
    void retryAfterIsAFloor() {
        assertThat(b.delayMillis(1, 0.0, 120_000)).isEqualTo(120_000);
        assertThat(b.delayMillis(7, 0.9, 1_000)).isEqualTo(57_000);
    }

    @Test
    void badArgumentsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("backoff.base");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1))).hasMessageContaining("backoff.cap");
        assertThatThrownBy(() -> b.delayMillis(0, 0, 0)).hasMessageContaining("attempt");
        assertThatThrownBy(() -> b.delayMillis(1, 1.0, 0)).hasMessageContaining("u must");
    }
}
