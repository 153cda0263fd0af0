package dev.agentbus.events;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.UUID;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.conditions.ArchConditions.callMethod;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The events module is the schema and the fold, nothing else (docs/architecture.md): every service reads it, so it
 * must not pull a broker, a framework or a file system into them, and the fold must give the same state for the same
 * log on any machine at any time. Checked here, in the first module of the build, so a slip fails in seconds.
 */
class SchemaBoundariesTest {
    static JavaClasses schema;

    @BeforeAll
    static void load() {
        schema = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.agentbus.events");
    }

    @Test
    void the_event_schema_depends_on_nothing_but_jackson() {
        noClasses().that().resideInAPackage("dev.agentbus.events..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "io.micronaut..",
                        "dev.agentbus.eventbus..", "dev.agentbus.gateway..", "dev.agentbus.orchestrator..",
                        "dev.agentbus.sandbox..", "dev.agentbus.scheduler..", "dev.agentbus.memory..",
                        "dev.agentbus.modelclient..", "dev.agentbus.api..")
                .because("the events module is only the schema and the fold")
                .check(schema);
    }

    @Test
    void the_schema_and_the_fold_touch_no_file_socket_or_process() {
        // Jackson's checked IOException is the one java.io type the codec needs; bytes and strings are its I/O.
        noClasses().that().resideInAPackage("dev.agentbus.events..")
                .should().dependOnClassesThat(resideInAnyPackage("java.io..", "java.nio.file..", "java.nio.channels..",
                                "java.net..", "java.sql..")
                        .and(not(type(IOException.class))).and(not(type(UncheckedIOException.class))))
                .orShould().dependOnClassesThat(type(ProcessBuilder.class).or(type(Process.class)))
                .because("reading and writing records is the services' job; the schema only turns bytes into records")
                .check(schema);
    }

    @Test
    void the_fold_reads_no_clock_and_draws_no_random_ids() {
        noClasses().that().resideInAPackage("dev.agentbus.events..")
                .should(callMethod(Instant.class, "now"))
                .orShould(callMethod(LocalDateTime.class, "now"))
                .orShould(callMethod(OffsetDateTime.class, "now"))
                .orShould(callMethod(ZonedDateTime.class, "now"))
                .orShould(callMethod(Clock.class, "systemUTC"))
                .orShould(callMethod(Clock.class, "systemDefaultZone"))
                .orShould(callMethod(System.class, "currentTimeMillis"))
                .orShould(callMethod(System.class, "nanoTime"))
                .orShould(callMethod(UUID.class, "randomUUID"))
                .because("a state is the fold of its log (invariant 2): the same events give the same state, "
                        + "today, after a crash and in a replay years later")
                .check(schema);
    }
}
