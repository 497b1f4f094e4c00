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
}
