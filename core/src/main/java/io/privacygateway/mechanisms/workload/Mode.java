package io.privacygateway.mechanisms.workload;

/** Trust model: devices randomize themselves (local) or trust the gateway with raw values (central). */
public enum Mode {
    LOCAL("local"),
    CENTRAL("central");

    private final String wireName;

    Mode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Mode fromWireName(String name) {
        return WireNames.lookup(values(), Mode::wireName, name, "mode");
    }
}
