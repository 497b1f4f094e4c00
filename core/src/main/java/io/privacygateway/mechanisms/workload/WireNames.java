package io.privacygateway.mechanisms.workload;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The one rule by which workload files and command lines name enum constants: each constant's wire name. */
public final class WireNames {
    private WireNames() {
    }

    /**
     * The constant whose wire name equals {@code name}.
     *
     * <p>Guarantees: returns the first of {@code constants} (declaration order) whose wire name equals {@code name};
     * otherwise throws IllegalArgumentException {@code unknown WHAT "NAME" (known: a, b, …)}, listing every wire name
     * in the order of {@code constants}. A {@code null} name matches nothing. Preconditions: {@code constants} is
     * the enum's {@code values()} and {@code wireName} never returns null.
     *
     * @param what what the name names, for the message ("mode", "neighbour relation", …)
     */
    public static <E extends Enum<E>> E lookup(E[] constants, Function<E, String> wireName, String name, String what) {
        for (E c : constants) {
            if (wireName.apply(c).equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " \"" + name + "\" (known: "
                + Arrays.stream(constants).map(wireName).collect(Collectors.joining(", ")) + ")");
    }
}
