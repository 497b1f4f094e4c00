package io.privacygateway.image;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;

/**
 * A health check for container runtimes that run a command inside the container (Docker Compose's
 * {@code healthcheck}): the image has no shell and no HTTP client, so this class, on the image's
 * classpath at {@code /app/classes}, asks the gateway's own health endpoint.
 *
 * <pre>
 * java -cp /app/classes io.privacygateway.image.HealthProbe http://127.0.0.1:9464/health/ready
 * </pre>
 *
 * <p>Exits 0 when the URL answers 2xx within two seconds, 1 otherwise (the reason on standard error).
 * It sends no data and prints nothing of the response.
 */
public final class HealthProbe {
    private HealthProbe() {}

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: HealthProbe URL");
            System.exit(2);
        }
        System.exit(check(args[0], 2000) ? 0 : 1);
    }

    /** True when {@code url} answers with a 2xx status within {@code timeoutMs} (connect and read). */
    public static boolean check(String url, int timeoutMs) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
            c.setConnectTimeout(timeoutMs);
            c.setReadTimeout(timeoutMs);
            c.setRequestMethod("GET");
            int status = c.getResponseCode();
            try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
                if (in != null) {
                    in.readAllBytes();
                }
            }
            c.disconnect();
            if (status / 100 != 2) {
                System.err.println(url + " answered " + status);
                return false;
            }
            return true;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println(url + ": " + e);
            return false;
        }
    }
}
