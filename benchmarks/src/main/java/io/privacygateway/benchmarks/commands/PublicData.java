package io.privacygateway.benchmarks.commands;

import io.privacygateway.mechanisms.analytics.GridData;
import io.privacygateway.mechanisms.workload.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Public reference data for the window-analytics benchmark (see {@code resources/datasets/README.md}): a data set's
 * rows (two features and a response) as the cell frequencies of a regression or erm workload with a bias feature
 * and two grid features. Each feature is standardised, divided by two standard deviations and clipped to [−1, 1];
 * the response is scaled from the data's range to the workload's; each row then counts for the nearest cell.
 */
enum PublicData {
    /** Disease progression (response) against body-mass index and blood pressure; 442 rows. */
    DIABETES("diabetes.csv"),
    /** Malignant (1) or benign (0) against mean radius and mean texture; 569 rows. */
    BREAST_CANCER("breast_cancer.csv");

    private final String file;

    PublicData(String file) {
        this.file = file;
    }

    /** The rows: {feature 1, feature 2, response}. */
    double[][] rows() {
        try (InputStream in = PublicData.class.getResourceAsStream("/datasets/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource datasets/" + file);
            }
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim().split("\n");
            List<double[]> out = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) { // line 0 is the header
                String[] c = lines[i].trim().split(",");
                out.add(new double[] {Double.parseDouble(c[0]), Double.parseDouble(c[1]), Double.parseDouble(c[2])});
            }
            return out.toArray(new double[0][]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The cell frequencies of {@code w} (a workload whose features are a constant bias and two grid features): each
     * row mapped to its nearest cell, every row with the same weight.
     */
    double[] frequencies(Workload w) {
        double[][] rows = rows();
        double[] mean = new double[2];
        double[] sd = new double[2];
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (double[] r : rows) {
            mean[0] += r[0] / rows.length;
            mean[1] += r[1] / rows.length;
            yMin = Math.min(yMin, r[2]);
            yMax = Math.max(yMax, r[2]);
        }
        for (double[] r : rows) {
            for (int j = 0; j < 2; j++) {
                sd[j] += (r[j] - mean[j]) * (r[j] - mean[j]) / (rows.length - 1);
            }
        }
        sd[0] = Math.sqrt(sd[0]);
        sd[1] = Math.sqrt(sd[1]);
        GridData g = GridData.of(w);
        if (g.dimension() != 3) {
            throw new IllegalArgumentException("public data needs a bias and two features, got d = " + g.dimension());
        }
        double wMin = Double.POSITIVE_INFINITY;
        double wMax = Double.NEGATIVE_INFINITY;
        for (int x = 0; x < g.cells(); x++) {
            wMin = Math.min(wMin, g.response(x));
            wMax = Math.max(wMax, g.response(x));
        }
        double[] f = new double[g.cells()];
        for (double[] r : rows) {
            double z1 = Math.max(-1, Math.min(1, (r[0] - mean[0]) / (2 * sd[0])));
            double z2 = Math.max(-1, Math.min(1, (r[1] - mean[1]) / (2 * sd[1])));
            double y = wMin + (r[2] - yMin) / (yMax - yMin) * (wMax - wMin);
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int x = 0; x < g.cells(); x++) {
                double[] fx = g.features(x);
                double d = (fx[1] - z1) * (fx[1] - z1) + (fx[2] - z2) * (fx[2] - z2)
                        + (g.response(x) - y) * (g.response(x) - y);
                if (d < bestD) {
                    bestD = d;
                    best = x;
                }
            }
            f[best] += 1.0 / rows.length;
        }
        return f;
    }
}
