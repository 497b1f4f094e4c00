package io.privacygateway.mechanisms.param;

/**
 * A zero-concentrated differential-privacy parameter ρ (Bun and Steinke 2016): finite and {@code > 0}.
 *
 * @param value the zCDP parameter; ρ-zCDP mechanisms compose by adding ρ
 */
public record Rho(double value) implements Comparable<Rho> {
    public Rho {
        Require.finitePositive("rho", value);
    }

    public static Rho of(double value) {
        return new Rho(value);
    }

    public Rho plus(Rho other) {
        return new Rho(sumRoundedUp(value, other.value));
    }

    @Override
    public int compareTo(Rho o) {
        return Double.compare(value, o.value);
    }

    @Override
    public String toString() {
        return "ρ=" + value;
    }

    /**
     * {@code a + b} rounded up: the exact rounding error of the floating-point sum (TwoSum, Knuth) says
     * whether the true sum lies above it, and only then is the next double returned, so a composed cost is
     * never understated and an exact sum is returned unchanged.
     */
    static double sumRoundedUp(double a, double b) {
        double s = a + b;
        double bb = s - a;
        double err = (a - (s - bb)) + (b - bb);
        return err > 0 ? Math.nextUp(s) : s;
    }
}
