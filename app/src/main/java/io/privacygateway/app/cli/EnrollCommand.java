package io.privacygateway.app.cli;

import io.privacygateway.schemas.identity.DeviceCredential;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privacy-gateway enroll}: issues device credentials for the gateway's enrolled-device mode
 * ({@code devices: {enrollment: required, keys: {...}}}): one line {@code <deviceId> <credential>} per device, to be
 * handed to that device (the SDK's {@code DeviceClient.Builder.credential}). The enrollment key is read from an
 * environment variable, never from the command line (which other users of the machine can see).
 */
@Command(name = "enroll", mixinStandardHelpOptions = true,
        description = "Issues device credentials for enrollment: required: prints one line '<deviceId> <credential>'"
                + " per device. The key (base64, at least 32 bytes, the same value as in gateway.yaml's"
                + " devices.keys) is read from an environment variable.")
public final class EnrollCommand implements Callable<Integer> {
    /** Device ids as the gateway accepts them in a record key. */
    private static final Pattern DEVICE_ID = Pattern.compile("[^\\s]{1,256}");

    @Spec
    CommandSpec spec;

    private final UnaryOperator<String> environment;

    public EnrollCommand() {
        this(System::getenv);
    }

    /** With the environment read through {@code environment} (tests). */
    EnrollCommand(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    @Option(names = "--key-id", required = true, paramLabel = "ID",
            description = "The enrollment key's id, as in gateway.yaml's devices.keys ([A-Za-z0-9_-]{1,32}).")
    String keyId;

    @Option(names = "--key-env", defaultValue = "PGW_ENROLLMENT_KEY", paramLabel = "NAME",
            description = "The environment variable holding the base64 key (default ${DEFAULT-VALUE}).")
    String keyEnv;

    @Option(names = "--device", paramLabel = "ID", description = "A device id (repeatable).")
    List<String> devices = new ArrayList<>();

    @Option(names = "--devices-file", paramLabel = "FILE", description = "A file with one device id per line.")
    Path devicesFile;

    @Override
    public Integer call() throws Exception {
        String encoded = environment.apply(keyEnv);
        if (encoded == null || encoded.isBlank()) {
            throw new IllegalArgumentException("--key-env: the environment variable " + keyEnv + " is not set");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(encoded.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--key-env: " + keyEnv + " is not base64");
        }
        DeviceCredential.checkKey(keyId, key);
        List<String> ids = new ArrayList<>(devices);
        if (devicesFile != null) {
            for (String line : Files.readAllLines(devicesFile, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    ids.add(line.trim());
                }
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("--device or --devices-file: no device id given");
        }
        for (int i = 0; i < ids.size(); i++) { // every id is checked before any credential is written
            if (!DEVICE_ID.matcher(ids.get(i)).matches()) {
                throw new IllegalArgumentException("--device: a device id has 1 to 256 characters and no white space"
                        + " (device id number " + (i + 1) + " of " + ids.size() + "); no credential was written");
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String id : ids) {
            out.println(id + " " + DeviceCredential.issue(keyId, key, id));
        }
        out.flush();
        return 0;
    }
}
