package io.privacygateway.mechanisms.central.wide;

import io.privacygateway.mechanisms.central.purification.Purifier;
import io.privacygateway.mechanisms.central.sampling.DiscreteGaussian;
import io.privacygateway.mechanisms.central.sampling.DiscreteLaplace;
import io.privacygateway.mechanisms.random.RandomBits;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** The production draws with a log of every call: its kind and the sampler object or argument it was given. */
public final class RecordingDraws implements ReleaseDraws {
    /** One secret draw. */
    public record Draw(String kind, Object parameter) {}

    private final ReleaseDraws exact;
    private final List<Draw> log = new ArrayList<>();

    public RecordingDraws(RandomBits bits) {
        this.exact = ReleaseDraws.exact(bits);
    }

    public List<Draw> log() {
        return log;
    }

    /** The kinds in order, runs of the same kind collapsed to "kind×count". */
    public List<String> shape() {
        List<String> out = new ArrayList<>();
        String last = null;
        int run = 0;
        for (Draw d : log) {
            if (d.kind().equals(last)) {
                run++;
            } else {
                if (last != null) {
                    out.add(run == 1 ? last : last + "×" + run);
                }
                last = d.kind();
                run = 1;
            }
        }
        if (last != null) {
            out.add(run == 1 ? last : last + "×" + run);
        }
        return out;
    }

    @Override
    public long gaussian(DiscreteGaussian noise) {
        log.add(new Draw("gaussian", noise));
        return exact.gaussian(noise);
    }

    @Override
    public long laplace(DiscreteLaplace noise) {
        log.add(new Draw("laplace", noise));
        return exact.laplace(noise);
    }

    @Override
    public boolean bernoulliExp(BigInteger num, BigInteger den) {
        log.add(new Draw("bernoulliExp", num + "/" + den));
        return exact.bernoulliExp(num, den);
    }

    @Override
    public long uniform(long n) {
        log.add(new Draw("uniform", n));
        return exact.uniform(n);
    }

    @Override
    public long[] purify(Purifier purifier, double[] x) {
        log.add(new Draw("purify", purifier));
        return exact.purify(purifier, x);
    }
}
