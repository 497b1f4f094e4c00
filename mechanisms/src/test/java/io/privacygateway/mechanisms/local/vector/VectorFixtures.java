package io.privacygateway.mechanisms.local.vector;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;

/** Shared test fixtures of the vector-mean protocols. */
final class VectorFixtures {
    /** A content hash (arbitrary, fixed). */
    static final String HASH = "6b1f0c7e2d4a9b3c8e5f1a0d7c2b4e6f9a3d5c7b1e0f2a4c6e8d0b2f4a6c8e0a";

    private VectorFixtures() {}

    static long base(int i) {
        return new PublicCoins(HASH).base(coordinates(i));
    }

    static ReportCoordinates coordinates(int i) {
        return new ReportCoordinates("device-" + i, 7, i % 5);
    }
}
