package io.privacygateway.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.privacygateway.mechanisms.planner.Plan;
import io.privacygateway.mechanisms.planner.Prediction;
import io.privacygateway.mechanisms.planner.ReferenceData;
import io.privacygateway.mechanisms.release.Answer;
import io.privacygateway.mechanisms.workload.WorkloadSpec;

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
            put(o, "standardError", a.standardErrors()[q]);
            put(o, "unprojected", a.unprojected()[q]);
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
            usq += (a.unprojected()[q] - truth[q]) * (a.unprojected()[q] - truth[q]);
            max = Math.max(max, Math.abs(d));
            if (truth[q] >= a.lower()[q] && truth[q] <= a.upper()[q]) {
                covered++;
            }
        }
        put(o, "rms", Math.sqrt(sq / truth.length));
        put(o, "max", max);
        put(o, "unprojectedRms", Math.sqrt(usq / truth.length));
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
            put(o, "epsilon", l.epsilon());
            put(o, "radius", l.radius());
            put(o, "noiseScale", l.noiseScale());
            put(o, "gaussianWidth", l.gaussianWidth());
            o.put("hullSize", l.hullSize());
            put(o, "projectionGap", l.projectionGap());
            if (l.rho() > 0) {
                put(o, "rho", l.rho());
            }
        }
        return arr;
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
    static ObjectNode centralPrivacy(io.privacygateway.mechanisms.central.CentralPipeline p, Answer a) {
        var c = p.parameters();
        ObjectNode o = MAPPER.createObjectNode();
        put(o, "epsilon", a.epsilon());
        o.put("delta", a.delta());
        o.put("guarantee", "every answer is pure ε-DP (δ = 0) for every device, by construction");
        put(o, "epsilonCount", c.epsilonCount());
        o.put("countPublic", c.epsilonCount() == 0);
        if (c.mechanism() != io.privacygateway.mechanisms.workload.MechanismId.LAPLACE) {
            ObjectNode g = o.putObject("gaussian");
            put(g, "rho", c.rho());
            put(g, "epsilonApprox", c.epsilonApprox());
            put(g, "logDelta", c.logDelta());
            g.put("space", c.space().name().toLowerCase(java.util.Locale.ROOT));
            ObjectNode pur = o.putObject("purification");
            put(pur, "epsilonPrime", c.epsilonPrime());
            put(pur, "omega", c.omega());
            pur.put("ball", c.norm().name());
            put(pur, "wassersteinBound", p.purifier().wassersteinBound());
            put(pur, "laplaceScale", p.purifier().noiseScale());
            put(pur, "theorem1L1Bound", p.purifier().expectedL1ErrorBound());
        } else {
            put(o, "laplaceScaleGridUnits", c.laplaceScale());
        }
        put(o, "predictedRms", c.predictedRms());
        return o;
    }
}
