package io.privacygateway.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privacygateway.mechanisms.accounting.PrivacyCost;
import io.privacygateway.mechanisms.analytics.release.AnalyticsMechanisms;
import io.privacygateway.mechanisms.analytics.WindowMechanism;
import io.privacygateway.mechanisms.analytics.release.AnalyticsRelease;
import io.privacygateway.mechanisms.central.CentralParameters;
import io.privacygateway.mechanisms.central.CentralRelease;
import io.privacygateway.mechanisms.runtime.CountsReleases;
import io.privacygateway.mechanisms.central.LaplaceRelease;
import io.privacygateway.mechanisms.central.PurifiedGaussianRelease;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.reference.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.Locale;
import java.util.TreeMap;

/** JSON rendering of answers and plans for the command line. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {}

    /** Writes a double, as {@code null} when it is not finite (JSON has no NaN). */
    static void put(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }

    /** The per-answer array, with true values when known. */
    static ArrayNode answers(Answer a, double[] truth) {
        ArrayNode arr = MAPPER.createArrayNode();
        for (int q = 0; q < a.labels().size(); q++) {
            ObjectNode o = arr.addObject();
            o.put("label", a.labels().get(q));
            put(o, "estimate", a.estimates()[q]);
            put(o, "lower", a.lower()[q]);
            put(o, "upper", a.upper()[q]);
            if (a.standardErrors().isPresent()) {
                put(o, "standardError", a.standardErrors().get()[q]);
            }
            if (a.unprojected().isPresent()) {
                put(o, "unprojected", a.unprojected().get()[q]);
            }
            if (truth != null) {
                put(o, "true", truth[q]);
            }
        }
        return arr;
    }

    /** Achieved error of an answer against the truth. */
    static ObjectNode error(Answer a, double[] truth) {
        ObjectNode o = MAPPER.createObjectNode();
        double sq = 0;
        double usq = 0;
        double max = 0;
        int covered = 0;
        for (int q = 0; q < truth.length; q++) {
            double d = a.estimates()[q] - truth[q];
            sq += d * d;
            if (a.unprojected().isPresent()) {
                double u = a.unprojected().get()[q] - truth[q];
                usq += u * u;
            }
            max = Math.max(max, Math.abs(d));
            if (truth[q] >= a.lower()[q] && truth[q] <= a.upper()[q]) {
                covered++;
            }
        }
        put(o, "rms", Math.sqrt(sq / truth.length));
        put(o, "max", max);
        if (a.unprojected().isPresent()) {
            put(o, "unprojectedRms", Math.sqrt(usq / truth.length));
        }
        put(o, "expectedRmsBound", a.expectedRmsError());
        put(o, "rmsBoundAtConfidence", a.rmsErrorBoundAtConfidence());
        put(o, "coverage", covered / (double) truth.length);
        o.put("note", "rms = ‖estimates − true‖₂/√m; coverage = share of true values inside [lower, upper]");
        return o;
    }

    static ArrayNode levels(Answer a) {
        ArrayNode arr = MAPPER.createArrayNode();
        for (Answer.LevelDetail l : a.levels()) {
            ObjectNode o = arr.addObject();
            o.put("level", l.level());
            o.set("cost", cost(l.cost()));
            put(o, "radius", l.radius());
            put(o, "noiseScale", l.noiseScale());
            put(o, "gaussianWidth", l.gaussianWidth());
            o.put("hullSize", l.hullSize());
            l.projectionGap().ifPresent(g -> put(o, "projectionGap", g));
        }
        return arr;
    }

    /** A privacy cost: its kind and its parameter (ε, ρ, or ε with ln δ). */
    static ObjectNode cost(PrivacyCost c) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("kind", c.kind());
        if (c instanceof PrivacyCost.Pure p) {
            put(o, "epsilon", p.epsilon());
        } else if (c instanceof PrivacyCost.Zcdp z) {
            put(o, "rho", z.rho());
        } else if (c instanceof PrivacyCost.Approximate a) {
            put(o, "epsilon", a.epsilon());
            put(o, "logDelta", a.logDelta().value());
        }
        return o;
    }

    /**
     * A window-analytics answer's own information: its named scalars, its items (the mode's released label) and
     * the family's error measure against the truth (only a simulation knows it).
     */
    static ObjectNode analytics(QueryFamily family, Answer a, double error) {
        ObjectNode o = MAPPER.createObjectNode();
        ObjectNode sc = o.putObject("scalars");
        new TreeMap<>(a.extras().scalars()).forEach((k, v) -> put(sc, k, v));
        ArrayNode items = o.putArray("items");
        for (Answer.Item i : a.extras().items()) {
            ObjectNode it = items.addObject();
            it.put("label", i.label());
            put(it, "estimate", i.estimate());
        }
        o.put("errorMeasure", AnalyticsMechanisms.errorMeasure(family));
        put(o, "error", error);
        return o;
    }

    static ObjectNode workload(WorkloadSpec s, String contentHash, int universe, int queries) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("id", s.id());
        o.put("version", s.version());
        o.put("family", s.family().wireName());
        o.put("contentHash", contentHash);
        o.put("universeSize", universe);
        o.put("queries", queries);
        return o;
    }

    static ObjectNode plan(Plan p) {
        ObjectNode o = MAPPER.createObjectNode();
        put(o, "epsilon", p.epsilon());
        o.put("n", p.n());
        o.put("method", p.method());
        ArrayNode refs = o.putArray("references");
        for (ReferenceData r : p.references()) {
            refs.add(r.label());
        }
        o.put("choice", p.choice().candidate().label());
        ArrayNode rows = o.putArray("predictions");
        for (Prediction pr : p.predictions()) {
            ObjectNode r = rows.addObject();
            r.put("mechanism", pr.candidate().label());
            r.put("applicable", pr.applicable());
            if (!pr.note().isEmpty()) {
                r.put("note", pr.note());
            }
            if (pr.applicable()) {
                put(r, "unprojectedRms", pr.unprojectedRms());
                put(r, "boundRms", pr.boundRms());
                ObjectNode sim = r.putObject("simulatedRms");
                for (int i = 0; i < p.references().size(); i++) {
                    put(sim, p.references().get(i).label(), pr.simulatedRms()[i]);
                }
                put(r, "regret", pr.regret());
            }
        }
        return o;
    }

    /** How a central release spent its ε (every part public), and its Theorem 1 bound. */
    static ObjectNode centralPrivacy(CentralRelease p, Answer a) {
        ObjectNode o = MAPPER.createObjectNode();
        put(o, "epsilon", a.cost().epsilon());
        o.put("delta", 0); // the answer's cost is PrivacyCost.Pure
        o.put("guarantee", "every answer is pure ε-DP (δ = 0) for every device, by construction");
        put(o, "epsilonCount", p.parameters().epsilonCount());
        o.put("countPublic", p.parameters().epsilonCount() == 0);
        if (p instanceof PurifiedGaussianRelease g) {
            CentralParameters.Gaussian c = g.parameters();
            ObjectNode gs = o.putObject("gaussian");
            put(gs, "rho", c.rho());
            put(gs, "epsilonApprox", c.epsilonApprox());
            put(gs, "logDelta", c.logDelta());
            gs.put("space", c.space().name().toLowerCase(Locale.ROOT));
            ObjectNode pur = o.putObject("purification");
            put(pur, "epsilonPrime", c.epsilonPrime());
            put(pur, "omega", c.omega());
            pur.put("ball", c.norm().name());
            put(pur, "wassersteinBound", g.purifier().wassersteinBound());
            put(pur, "laplaceScale", g.purifier().noiseScale());
            put(pur, "theorem1L1Bound", g.purifier().expectedL1ErrorBound());
        } else if (p instanceof LaplaceRelease l) {
            put(o, "epsilonSum", l.parameters().epsilonSum());
            put(o, "laplaceScaleGridUnits", l.sumNoise().scaleDouble());
        } else if (p instanceof AnalyticsRelease r) {
            ObjectNode m = o.putObject("mechanismParameters");
            for (WindowMechanism.Parameter x : r.mechanism().parameters()) {
                put(m, x.name(), x.value());
            }
        }
        put(o, "predictedRms", p.parameters().predictedRms());
        return o;
    }
}
