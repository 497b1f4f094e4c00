package io.privacygateway.image;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import net.jpountz.lz4.LZ4Factory;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.xerial.snappy.Snappy;

/**
 * Run inside the image by {@link ImageRuntimeIT}: loads the native code the gateway's libraries carry
 * (RocksDB for Kafka Streams' state stores; Snappy, zstd and LZ4 for Kafka's compression), and checks
 * the TLS and randomness the gateway relies on. Prints {@value #OK} when everything worked.
 */
public final class NativeSmoke {
    static final String OK = "NATIVE SMOKE OK";

    private NativeSmoke() {}

    public static void main(String[] args) throws Exception {
        byte[] data = "privacy gateway ".repeat(200).getBytes(StandardCharsets.UTF_8);

        RocksDB.loadLibrary();
        Path db = Files.createTempDirectory("smoke-rocksdb");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB r = RocksDB.open(o, db.toString())) {
            r.put("k".getBytes(StandardCharsets.UTF_8), data);
            check("RocksDB get", Arrays.equals(r.get("k".getBytes(StandardCharsets.UTF_8)), data));
        }

        check("Snappy", Arrays.equals(Snappy.uncompress(Snappy.compress(data)), data));
        check("zstd", Arrays.equals(com.github.luben.zstd.Zstd.decompress(com.github.luben.zstd.Zstd.compress(data), data.length), data));
        LZ4Factory lz4 = LZ4Factory.nativeInstance();
        byte[] packed = lz4.fastCompressor().compress(data);
        check("LZ4 (native)", Arrays.equals(lz4.fastDecompressor().decompress(packed, data.length), data));

        SSLContext tls = SSLContext.getInstance("TLSv1.3");
        tls.init(null, null, new SecureRandom());
        SSLEngine engine = tls.createSSLEngine();
        check("TLS 1.3 with ECDHE", Arrays.asList(engine.getSupportedCipherSuites()).contains("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384")
                && List.of(engine.getSupportedProtocols()).contains("TLSv1.3"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        X509TrustManager tm = (X509TrustManager) tmf.getTrustManagers()[0];
        check("CA certificates in the default trust store (" + tm.getAcceptedIssuers().length + ")",
                tm.getAcceptedIssuers().length > 50);

        SecureRandom strong = SecureRandom.getInstanceStrong();
        strong.nextLong();
        check("localhost resolves", InetAddress.getByName("localhost").isLoopbackAddress());
        System.out.println(OK + " user=" + System.getProperty("user.name") + " home=" + System.getProperty("user.home")
                + " tmp=" + System.getProperty("java.io.tmpdir"));
    }

    private static void check(String what, boolean ok) {
        if (!ok) {
            throw new AssertionError(what + " failed");
        }
        System.out.println("ok: " + what);
    }
}
