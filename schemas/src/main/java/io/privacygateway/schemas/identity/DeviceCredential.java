package io.privacygateway.schemas.identity;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An enrolled device's credential: a MAC over its device id, issued once at enrollment by whoever holds an
 * enrollment key, and carried by every report in the record header {@value #HEADER}. With enrollment required,
 * the gateway accepts a report only if the header verifies for the report's device id, so a device cannot
 * report under another device's id (and burn its budget) nor choose its id freely (and so grind the public
 * coins derived from it).
 *
 * <p>Format (UTF-8): {@code v1.<keyId>.<base64url(HMAC-SHA256(key, "pgw-device-credential-v1|" + deviceId))>},
 * without padding. Key ids match {@code [A-Za-z0-9_-]{1,32}}; keys are at least 32 bytes. Verification
 * compares in constant time.
 */
public final class DeviceCredential {
    /** The record header that carries the credential. */
    public static final String HEADER = "pgw-device-credential";
    /** The shortest enrollment key accepted, in bytes. */
    public static final int MIN_KEY_BYTES = 32;
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    private static final String DOMAIN = "pgw-device-credential-v1|";
    private static final ThreadLocal<Mac> MAC = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    });

    private DeviceCredential() {}

    /**
     * Issues the credential of {@code deviceId} under enrollment key {@code keyId}.
     *
     * @throws IllegalArgumentException if the key id or key is unusable
     */
    public static String issue(String keyId, byte[] key, String deviceId) {
        checkKey(keyId, key);
        return "v1." + keyId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(key, deviceId));
    }

    /** Validates an enrollment key, naming what is wrong. */
    public static void checkKey(String keyId, byte[] key) {
        if (keyId == null || !KEY_ID.matcher(keyId).matches()) {
            throw new IllegalArgumentException("enrollment key id must match [A-Za-z0-9_-]{1,32}, got " + keyId);
        }
        if (key == null || key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("enrollment key " + keyId + " must have at least " + MIN_KEY_BYTES
                    + " bytes, got " + (key == null ? 0 : key.length));
        }
    }

    /**
     * Whether {@code header} is a valid credential of {@code deviceId} under one of {@code keys} (key id → key).
     * Never throws on hostile input.
     */
    public static boolean verify(byte[] header, String deviceId, Map<String, byte[]> keys) {
        if (header == null || header.length > 128 || deviceId == null) {
            return false;
        }
        String s = new String(header, StandardCharsets.UTF_8);
        if (!s.startsWith("v1.")) {
            return false;
        }
        int dot = s.indexOf('.', 3);
        if (dot < 0) {
            return false;
        }
        byte[] key = keys.get(s.substring(3, dot));
        if (key == null) {
            return false;
        }
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(s.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(given, mac(key, deviceId));
    }

    private static byte[] mac(byte[] key, String deviceId) {
        Mac m = MAC.get();
        try {
            m.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("unusable enrollment key", e);
        }
        return m.doFinal((DOMAIN + deviceId).getBytes(StandardCharsets.UTF_8));
    }
}
