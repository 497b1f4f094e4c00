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
        return new Rho(Math.nextUp(value + other.value)); // rounded up: a sum of costs is never understated
    }

    @Override
    public int compareTo(Rho o) {
        return Double.compare(value, o.value);
    }

    @Override
    public String toString() {
        return "ρ=" + value;
    }
}
