package io.privacygateway.app.files;

import io.privacygateway.mechanisms.runtime.LocalWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.InvalidValueException;
import io.privacygateway.mechanisms.workload.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A values file: one device value per line (a label, a number, or comma-separated 0/1 attributes, as
 * the workload's domain requires). Blank lines and lines starting with {@code #} are ignored. Every
 * other line is either encoded or reported with its line number; nothing is dropped silently.
 */
public final class ValuesFile {
    private ValuesFile() {}

    /** A line that could not be encoded. */
    public record Rejected(long line, String reason) {}

    /**
     * The encoded values and the rejected lines.
     *
     * @param values universe indices of the accepted lines, in file order
     * @param lines the 1-based line number of each accepted value
     * @param rejected the lines that are not in the workload's domain
     */
    public record Contents(int[] values, long[] lines, List<Rejected> rejected) {}

    /** Reads and encodes a values file against a workload. */
    public static Contents read(Path file, Workload workload) throws IOException {
        return read(file, workload::encode);
    }

    /**
     * Reads and encodes a values file against a resolved workload (a wide workload's values are its bit vectors,
     * {@link io.privacygateway.mechanisms.runtime.ResolvedWorkload#encode}).
     */
    public static Contents read(Path file, ResolvedWorkload workload)
            throws IOException {
        return read(file, workload::encode);
    }

    /**
     * The accepted strings of an open-domain (heavy-hitters) values file and the rejected lines.
     *
     * @param values the accepted strings (each line stripped of surrounding white space), in file order
     * @param rejected the lines the workload's protocol refuses (the reason never repeats the value)
     */
    public record Strings(List<String> values, List<Rejected> rejected) {}

    /**
     * Reads the strings of a values file for an open-domain workload (heavy-hitters), each checked by
     * {@link io.privacygateway.mechanisms.runtime.ResolvedWorkload#checkValue}.
     */
    public static Strings readStrings(Path file, ResolvedWorkload workload)
            throws IOException {
        List<String> out = new ArrayList<>();
        List<Rejected> rejected = lines(file, (t, lineNo) -> {
            workload.checkValue(t);
            out.add(t);
        });
        return new Strings(out, rejected);
    }

    /**
     * The accepted vectors of a vector-mean values file (family mean over a ball or a box) and the rejected lines.
     *
     * @param values the accepted vectors, in file order
     * @param rejected the lines that are not vectors of the domain (the reason names the rule and the coordinate's
     *     position, never a coordinate's value)
     */
    public record VectorLines(List<double[]> values, List<Rejected> rejected) {}

    /**
     * Reads the vectors of a values file for a vector-mean workload: every line its coordinates in declaration order,
     * comma-separated ({@link io.privacygateway.mechanisms.runtime.LocalWorkload.Vectors#parse}), each checked by
     * {@link io.privacygateway.mechanisms.runtime.LocalWorkload.Vectors#checkVector}.
     */
    public static VectorLines readVectors(Path file, LocalWorkload.Vectors workload)
            throws IOException {
        List<double[]> out = new ArrayList<>();
        List<Rejected> rejected = lines(file, (t, lineNo) -> {
            double[] v = workload.parse(t);
            workload.checkVector(v);
            out.add(v);
        });
        return new VectorLines(out, rejected);
    }

    /** What is done with one value line (its text stripped, its 1-based number). */
    @FunctionalInterface
    private interface LineHandler {
        void accept(String value, long line) throws InvalidValueException;
    }

    /**
     * Hands every value line of a file (not blank, not a {@code #} comment; stripped) to {@code handler}, in order.
     *
     * @return the lines the handler refused, with their reasons
     */
    private static List<Rejected> lines(Path file, LineHandler handler) throws IOException {
        List<Rejected> rejected = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String s;
            long lineNo = 0;
            while ((s = r.readLine()) != null) {
                lineNo++;
                String t = s.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                try {
                    handler.accept(t, lineNo);
                } catch (InvalidValueException e) {
                    rejected.add(new Rejected(lineNo, e.getMessage()));
                }
            }
        }
        return rejected;
    }

    /** How a line becomes an index. */
    @FunctionalInterface
    private interface Encoder {
        int encode(String raw) throws InvalidValueException;
    }

    private static Contents read(Path file, Encoder workload) throws IOException {
        Accepted accepted = new Accepted();
        List<Rejected> rejected = lines(file, (t, lineNo) -> accepted.add(workload.encode(t), lineNo));
        return new Contents(Arrays.copyOf(accepted.values, accepted.n),
                Arrays.copyOf(accepted.lines, accepted.n), rejected);
    }

    /** The encoded values and their line numbers, growing as lines are accepted. */
    private static final class Accepted {
        int[] values = new int[1024];
        long[] lines = new long[1024];
        int n;

        void add(int x, long line) {
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
                lines = Arrays.copyOf(lines, n * 2);
            }
            values[n] = x;
            lines[n] = line;
            n++;
        }
    }
}
