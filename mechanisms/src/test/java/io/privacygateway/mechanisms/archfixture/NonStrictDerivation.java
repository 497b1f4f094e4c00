package io.privacygateway.mechanisms.archfixture;

import java.util.function.DoubleUnaryOperator;

/** A fixture for {@code StrictDerivationsTest}: a derivation that calls {@link Math#exp} and refers to {@link Math#log}. */
final class NonStrictDerivation {
    private NonStrictDerivation() {}

    static int range(double epsilon) {
        return (int) Math.rint(Math.exp(epsilon) + 1);
    }

    static DoubleUnaryOperator logarithm() {
        return Math::log;
    }

    /** Exactly specified functions are allowed. */
    static double allowed(double x) {
        return Math.sqrt(Math.abs(Math.floor(x))) + StrictMath.exp(x);
    }
}
