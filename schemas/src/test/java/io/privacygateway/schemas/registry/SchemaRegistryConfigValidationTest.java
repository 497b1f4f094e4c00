package io.privacygateway.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.schemas.avro.LocalReport;
import io.privacygateway.schemas.serde.AvroDeserializer;
import io.privacygateway.schemas.serde.AvroSerializer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Registry settings are validated: an unknown key in the registry's namespaces is an error naming
 * the key (a misspelt credentials key must not silently mean "no authentication"), and credentials
 * are not sent over plain http unless that is asked for explicitly. Keys are spelled out as strings,
 * as they appear in configuration files. No server is contacted.
 */
class SchemaRegistryConfigValidationTest {

    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    @Test
    void unknownRegistryKeysAreRefusedWithTheKeyAndTheSupportedKeys() {
        for (String typo : new String[] {"basic.auth.user.inf0", "basic.auth.userinfo", "schema.registry.basic.auth.userinfo",
                "schema.registry.request.timeout", "schema.registry.ssl.truststore.location", "bearer.auth.token",
                "basic.auth.credential.source", "ssl.truststore.location", "user.info"}) {
            assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                    typo, "u:p")))
                    .as(typo)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(typo)
                    .hasMessageContaining("basic.auth.user.info")   // the list of supported keys
                    .hasMessageNotContaining("u:p");
        }
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "schema.registry.ssl.keystore.location", "/k.jks")))
                .hasMessageContaining("javax.net.ssl");
    }

    @Test
    void aKafkaClientMapKeepsItsOwnKeysButRegistryTyposAreRefused() {
        Map<String, Object> kafka = map("schema.registry.url", "https://r.example", "bootstrap.servers", "b:9093",
                "security.protocol", "SSL", "ssl.truststore.location", "/etc/kafka/truststore.jks",
                "sasl.mechanism", "PLAIN", "auto.register.schemas", "false",
                "specific.avro.value.type", LocalReport.class.getName());
        assertThatCode(() -> {
            new AvroSerializer<LocalReport>().configure(kafka, false);
            new AvroDeserializer<LocalReport>().configure(kafka, false);
        }).doesNotThrowAnyException();

        kafka.put("basic.auth.user.inf0", "u:p");
        assertThatThrownBy(() -> new AvroSerializer<LocalReport>().configure(kafka, false))
                .hasMessageContaining("basic.auth.user.inf0");
        assertThatThrownBy(() -> new AvroDeserializer<LocalReport>().configure(kafka, false))
                .hasMessageContaining("basic.auth.user.inf0");
    }

    @Test
    void credentialsOverPlainHttpAreRefusedUnlessExplicitlyAllowed() {
        String allow = "schema.registry.allow.insecure.http.credentials";
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "http://r.example:8081",
                "basic.auth.user.info", "gateway:s3cret")))
                .hasMessageContaining("http://r.example:8081").hasMessageContaining(allow)
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> SchemaRegistryClient.forUrl("http://gateway:s3cret@r.example:8081"))
                .hasMessageContaining(allow).hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map(
                "schema.registry.url", "https://a.example, http://b.example", "basic.auth.user.info", "u:p")))
                .as("one plain-http URL among several").hasMessageContaining("http://b.example");
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "http://r.example",
                "basic.auth.user.info", "u:p", allow, "yes")))
                .hasMessageContaining(allow);

        assertThat(SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "basic.auth.user.info", "u:p")).config().basicAuthUserInfo()).isEqualTo("u:p");
        assertThat(SchemaRegistryClient.fromConfigs(map("schema.registry.url", "http://r.example",
                "basic.auth.user.info", "u:p", allow, "true")).config().basicAuthUserInfo()).isEqualTo("u:p");
        assertThat(SchemaRegistryClient.fromConfigs(map("schema.registry.url", "http://u:p@r.example",
                allow, true)).config().basicAuthUserInfo()).isEqualTo("u:p");
        assertThat(SchemaRegistryClient.forUrl("http://r.example").config().basicAuthUserInfo())
                .as("no credentials: plain http is fine").isNull();
    }

    @Test
    void contradictoryCredentialSettingsAreRefused() {
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "basic.auth.credentials.source", "URL", "basic.auth.user.info", "u:p")))
                .as("URL source ignores user.info").hasMessageContaining("basic.auth.user.info");
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "basic.auth.user.info", "u:p", "schema.registry.basic.auth.user.info", "v:q")))
                .hasMessageContaining("schema.registry.basic.auth.user.info").hasMessageNotContaining("v:q");
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://x:y@r.example",
                "basic.auth.user.info", "u:p")))
                .hasMessageContaining("USER_INFO").hasMessageNotContaining("x:y");
    }

    @Test
    void lookupLimitsAreValidated() {
        for (String key : new String[] {"schema.registry.lookup.interval.ms", "schema.registry.max.id.lookups.per.interval",
                "schema.registry.missing.id.cache.size"}) {
            for (Object bad : new Object[] {"0", -1, "soon", "1.5"}) {
                assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                        key, bad))).as(key + "=" + bad).hasMessageContaining(key);
            }
        }
        assertThatThrownBy(() -> SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "schema.registry.missing.id.cache.ttl.ms", -1))).hasMessageContaining("schema.registry.missing.id.cache.ttl.ms");
        SchemaRegistryClient ok = SchemaRegistryClient.fromConfigs(map("schema.registry.url", "https://r.example",
                "schema.registry.lookup.interval.ms", "2500", "schema.registry.max.id.lookups.per.interval", 3,
                "schema.registry.missing.id.cache.ttl.ms", 0, "schema.registry.missing.id.cache.size", "100"));
        assertThat(ok.config().toString()).contains("lookupInterval=PT2.5S").contains("maxIdLookupsPerInterval=3")
                .contains("100 ids for PT0S");
    }
}
