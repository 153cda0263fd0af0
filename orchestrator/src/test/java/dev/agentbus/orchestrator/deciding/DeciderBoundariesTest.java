package dev.agentbus.orchestrator.deciding;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Instant;
import java.util.UUID;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.conditions.ArchConditions.callMethod;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The decider is a pure function of the state, the input and the context it is handed (docs/architecture.md, "the
 * agent loop as a decider"): no Kafka, no Micronaut, no model client, no file or socket, no clock of its own. That
 * is what lets every rule of the loop be tested given/when/then in milliseconds, and a replay decide alike.
 */
class DeciderBoundariesTest {
    static JavaClasses decider;

    @BeforeAll
    static void load() {
        decider = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(DeciderBoundariesTest.class.getPackageName());
    }

    @Test
    void the_decider_knows_only_the_schema_jackson_and_the_jdk() {
        classes().that().resideInAPackage("dev.agentbus.orchestrator.deciding..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "com.fasterxml.jackson..",
                        "dev.agentbus.events..", "dev.agentbus.orchestrator.deciding..")
                .because("the decider is tested and replayed without a broker, a framework or a model server")
                .check(decider);
    }

    @Test
    void the_decider_touches_no_file_socket_or_process() {
        noClasses().that().resideInAPackage("dev.agentbus.orchestrator.deciding..")
                .should().dependOnClassesThat(resideInAnyPackage("java.io..", "java.nio.file..", "java.nio.channels..",
                                "java.net..", "java.net.http..", "java.sql..")
                        .and(not(type(IOException.class))))
                .orShould().dependOnClassesThat(type(ProcessBuilder.class).or(type(Process.class))
                        .or(type(Thread.class)))
                .because("effects are the orchestrator's to run, after the decision is recorded")
                .check(decider);
    }

    @Test
    void the_decider_takes_the_time_and_new_ids_from_its_context() {
        noClasses().that().resideInAPackage("dev.agentbus.orchestrator.deciding..")
                .should(callMethod(Instant.class, "now"))
                .orShould(callMethod(System.class, "currentTimeMillis"))
                .orShould(callMethod(System.class, "nanoTime"))
                .orShould(callMethod(UUID.class, "randomUUID"))
                .because("the same input in the same state must give the same decision (DecisionContext)")
                .check(decider);
    }
}
