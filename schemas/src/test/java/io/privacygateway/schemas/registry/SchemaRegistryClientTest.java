package io.privacygateway.schemas.registry;

import io.privacygateway.harness.testing.RealRegistry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The registry client against a real Apicurio Registry (Confluent API). Each test uses its own subjects. */
class SchemaRegistryClientTest {

    static final Schema USER_V1 = new Schema.Parser().parse("""
            {"type": "record", "name": "User", "namespace": "io.privacygateway.test",
             "fields": [{"name": "id", "type": "long"}, {"name": "country", "type": "string"}]}""");
    static final Schema USER_V2 = new Schema.Parser().parse("""
            {"type": "record", "name": "User", "namespace": "io.privacygateway.test",
             "fields": [{"name": "id", "type": "long"}, {"name": "country", "type": "string"},
                        {"name": "age", "type": ["null", "int"], "default": null}]}""");
    static final Schema USER_RETYPED = new Schema.Parser().parse("""
            {"type": "record", "name": "User", "namespace": "io.privacygateway.test",
             "fields": [{"name": "id", "type": "string"}, {"name": "country", "type": "string"}]}""");

    @RegisterExtension
    static final RealRegistry registry = RealRegistry.perClass();

    static SchemaRegistryClient newClient() {
        return SchemaRegistryClient.forUrl(registry.ccompatUrl());
    }

    @Test
    void registerThenFetchById() {
        SchemaRegistryClient client = newClient();
        int id = client.register("client-a-value", USER_V1);
        assertThat(id).isPositive();

        // A fresh client (empty caches) fetches the schema by id over HTTP.
        SchemaRegistryClient other = newClient();
        assertThat(other.getById(id)).isEqualTo(USER_V1);
        assertThat(other.requestCount()).isEqualTo(1);
        assertThat(other.getById(id)).isEqualTo(USER_V1);
        assertThat(other.requestCount()).as("second fetch comes from the cache").isEqualTo(1);
    }

    @Test
    void registeringTheSameSchemaTwiceReturnsTheSameIdAndAddsNoVersion() {
        SchemaRegistryClient client = newClient();
        int id = client.register("client-twice-value", USER_V1);
        long requests = client.requestCount();
        assertThat(client.register("client-twice-value", USER_V1)).isEqualTo(id);
        assertThat(client.requestCount()).as("cached: no HTTP").isEqualTo(requests);

        // The registry itself is idempotent too: a client without the cache gets the same id.
        SchemaRegistryClient fresh = newClient();
        assertThat(fresh.register("client-twice-value", USER_V1)).isEqualTo(id);
        assertThat(fresh.requestCount()).isEqualTo(1);
        assertThat(fresh.versions("client-twice-value")).containsExactly(1);
        // An equal schema parsed separately hits the same cache entry.
        assertThat(fresh.register("client-twice-value", new Schema.Parser().parse(USER_V1.toString()))).isEqualTo(id);
        assertThat(fresh.requestCount()).isEqualTo(2);
    }

    @Test
    void lookupLatestAndVersions() {
        SchemaRegistryClient client = newClient();
        String subject = "client-latest-value";
        int id1 = client.register(subject, USER_V1);
        int id2 = client.register(subject, USER_V2);
        assertThat(id2).isNotEqualTo(id1);

        RegisteredSchema latest = client.latest(subject);
        assertThat(latest).isEqualTo(new RegisteredSchema(subject, id2, 2, USER_V2));
        assertThat(client.version(subject, 1)).isEqualTo(new RegisteredSchema(subject, id1, 1, USER_V1));
        assertThat(client.versions(subject)).containsExactly(1, 2);
        assertThat(client.subjects()).contains(subject);

        SchemaRegistryClient fresh = newClient();
        assertThat(fresh.lookupId(subject, USER_V1)).isEqualTo(id1);
        assertThat(fresh.lookupId(subject, USER_V1)).isEqualTo(id1);
        assertThat(fresh.requestCount()).isEqualTo(1);
        SchemaRegistryException notThere = catchThrowableOfType(SchemaRegistryException.class,
                () -> fresh.lookupId(subject, USER_RETYPED));
        // Confluent answers 40403 (schema not found); Apicurio 2.4.2 answers 40401 (subject not found).
        assertThat(notThere.httpStatus()).isEqualTo(404);
        assertThat(notThere.errorCode()).isIn(SchemaRegistryException.SCHEMA_NOT_FOUND,
                SchemaRegistryException.SUBJECT_NOT_FOUND);
        SchemaRegistryException noSubject = catchThrowableOfType(SchemaRegistryException.class,
                () -> fresh.lookupId("client-nonexistent-value", USER_V1));
        assertThat(noSubject.httpStatus()).isEqualTo(404);
        assertThat(noSubject.errorCode()).isEqualTo(SchemaRegistryException.SUBJECT_NOT_FOUND);
        System.out.println("lookup of an unregistered schema: " + notThere.getMessage());
    }

    @Test
    void compatibilityLevelsAndChecks() {
        SchemaRegistryClient client = newClient();
        String subject = "client-compat-value";
        assertThat(client.testCompatibility(subject, USER_V1).compatible())
                .as("a subject without versions accepts anything").isTrue();
        client.register(subject, USER_V1);
        assertThat(client.setCompatibility(subject, CompatibilityLevel.FULL_TRANSITIVE))
                .isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
        assertThat(client.getCompatibility(subject)).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);

        CompatibilityResult ok = client.testCompatibility(subject, USER_V2);
        assertThat(ok.compatible()).isTrue();
        CompatibilityResult retyped = client.testCompatibility(subject, USER_RETYPED);
        assertThat(retyped.compatible()).isFalse();
        System.out.println("retyped id: " + retyped.messages());

        SchemaRegistryException conflict = catchThrowableOfType(SchemaRegistryException.class,
                () -> client.register(subject, USER_RETYPED));
        assertThat(conflict.isIncompatible()).isTrue();
        assertThat(conflict).hasMessageContaining("HTTP 409").hasMessageContaining("/subjects/" + subject);
        assertThat(client.versions(subject)).containsExactly(1);
    }

    @Test
    void globalCompatibilityCanBeReadAndSet() {
        SchemaRegistryClient client = newClient();
        CompatibilityLevel before = client.getGlobalCompatibility();
        try {
            assertThat(client.setGlobalCompatibility(CompatibilityLevel.BACKWARD)).isEqualTo(CompatibilityLevel.BACKWARD);
            assertThat(client.getGlobalCompatibility()).isEqualTo(CompatibilityLevel.BACKWARD);
        } finally {
            client.setGlobalCompatibility(before);
        }
    }

    @Test
    void anUnknownIdIs40403AndIsRememberedForTheTtl() {
        AtomicLong now = new AtomicLong();
        SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.ccompatUrl()), now::get);
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(987_654));
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
        assertThat(e).hasMessageContaining("GET /schemas/ids/987654").hasMessageContaining("error_code 40403");
        assertThat(client.requestCount()).isEqualTo(1);

        for (int i = 0; i < 100; i++) {
            SchemaRegistryException again = catchThrowableOfType(SchemaRegistryException.class,
                    () -> client.getById(987_654));
            assertThat(again.errorCode()).isEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
        }
        assertThat(client.requestCount()).as("remembered as missing").isEqualTo(1);

        now.addAndGet(SchemaRegistryConfig.DEFAULT_MISSING_ID_CACHE_TTL.toNanos() + 1);
        catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(987_654));
        assertThat(client.requestCount()).as("asked again after the TTL").isEqualTo(2);
    }

    @Test
    void schemaUnderSubjectAnswersFromTheSubjectsVersions() {
        AtomicLong now = new AtomicLong();
        SchemaRegistryClient client = new SchemaRegistryClient(SchemaRegistryConfig.of(registry.ccompatUrl()), now::get);
        String subject = "client-under-value";
        // A subject the registry does not know: Apicurio answers 404 with 40401 to its versions list.
        assertThat(client.schemaUnderSubject(subject, 1)).isNull();
        assertThat(client.requestCount()).isEqualTo(1);

        SchemaRegistryClient writer = newClient();
        int id1 = writer.register(subject, USER_V1);
        int id2 = writer.register(subject, USER_V2);
        int elsewhere = writer.register("client-under-other-value", USER_RETYPED);
        // Issue 27, item 12: registered just after a listing that did not have it, still found at once (it was
        // answered "not under this subject" from that listing for up to an interval)
        assertThat(client.schemaUnderSubject(subject, id2)).as("registered after the last listing").isEqualTo(USER_V2);
        assertThat(client.requestCount()).as("the list, then versions 1 and 2").isEqualTo(4);
        assertThat(client.schemaUnderSubject(subject, id1)).isEqualTo(USER_V1);
        assertThat(client.requestCount()).isEqualTo(4);
        assertThat(client.schemaUnderSubject(subject, elsewhere)).as("registered, but under another subject").isNull();
        assertThat(client.requestCount()).as("listed once more, nothing new in it").isEqualTo(5);
        assertThat(client.getById(elsewhere)).as("by id it exists").isEqualTo(USER_RETYPED);
    }

    @Test
    void anUnknownSubjectIsA404() {
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                () -> newClient().latest("client-no-such-subject-value"));
        // Confluent answers 40401 (subject not found); Apicurio 2.4.2 answers 40402 (version not found).
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.errorCode()).isIn(SchemaRegistryException.SUBJECT_NOT_FOUND,
                SchemaRegistryException.VERSION_NOT_FOUND);
        System.out.println("latest of an unknown subject: " + e.getMessage());
    }

    @Test
    void aRegistryThatDoesNotAnswerIsNoResponse() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        SchemaRegistryClient client = SchemaRegistryClient.fromConfigs(Map.of(
                SchemaRegistryConfig.URL, "http://127.0.0.1:" + deadPort,
                SchemaRegistryConfig.CONNECT_TIMEOUT_MS, "2000"));
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));
        assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_RESPONSE);
        assertThat(e).hasMessageContaining("no response");
    }

    @Test
    void aDeadFirstUrlFailsOverToTheNext() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        SchemaRegistryClient client = SchemaRegistryClient.fromConfigs(Map.of(
                SchemaRegistryConfig.URL, "http://127.0.0.1:" + deadPort + ", " + registry.ccompatUrl()));
        int id = client.register("client-failover-value", USER_V1);
        assertThat(client.getById(id)).isEqualTo(USER_V1);
        assertThat(client.requestCount()).isEqualTo(2);
    }

    @Test
    void aWrongPathIsA404WithoutTheSchemaNotFoundCode() {
        SchemaRegistryClient client = SchemaRegistryClient.forUrl(registry.baseUrl() + "/no/such/api");
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class, () -> client.getById(1));
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.errorCode()).isNotEqualTo(SchemaRegistryException.SCHEMA_NOT_FOUND);
    }

    @Test
    void anUnknownVersionIs40402WithTheRegistrysMessage() {
        SchemaRegistryClient client = newClient();
        client.register("client-error-value", USER_V1);
        SchemaRegistryException e = catchThrowableOfType(SchemaRegistryException.class,
                () -> client.version("client-error-value", 99));
        assertThat(e.httpStatus()).isEqualTo(404);
        assertThat(e.errorCode()).isEqualTo(SchemaRegistryException.VERSION_NOT_FOUND);
        assertThat(e.registryMessage()).isNotBlank();
    }

    @Test
    void aLevelSetBeforeTheFirstVersionIsKeptAndEnforced() {
        SchemaRegistryClient client = newClient();
        String subject = "client-level-first-value";
        assertThat(client.setCompatibility(subject, CompatibilityLevel.FULL)).isEqualTo(CompatibilityLevel.FULL);
        client.register(subject, USER_V1);
        assertThat(client.getCompatibility(subject)).isEqualTo(CompatibilityLevel.FULL);
        assertThat(catchThrowableOfType(SchemaRegistryException.class, () -> client.register(subject, USER_RETYPED))
                .isIncompatible()).isTrue();
    }
}
