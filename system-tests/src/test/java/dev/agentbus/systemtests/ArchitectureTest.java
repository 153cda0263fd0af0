package dev.agentbus.systemtests;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.micronaut.context.annotation.Value;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The boundaries of docs/architecture.md that span modules, checked on the compiled code: services talk only through
 * Kafka, so no service may use another service's classes. The rules about one module run in that module, early in
 * the build: the schema's in events ({@code SchemaBoundariesTest}), the decider's in the orchestrator
 * ({@code DeciderBoundariesTest}); which classes are public is {@link ClassVisibilityTest}'s.
 */
class ArchitectureTest {
    static final List<String> SERVICES = List.of("dev.agentbus.gateway", "dev.agentbus.orchestrator",
            "dev.agentbus.sandbox", "dev.agentbus.scheduler", "dev.agentbus.memory");

    static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.agentbus");
    }

    @Test
    void no_service_uses_another_services_code() {
        for (String service : SERVICES) {
            String[] others = SERVICES.stream().filter(s -> !s.equals(service)).map(s -> s + "..")
                    .toArray(String[]::new);
            noClasses().that().resideInAPackage(service + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .because("services talk only through Kafka topics")
                    .check(classes);
        }
    }

    @Test
    void shared_libraries_do_not_reach_into_services() {
        noClasses().that().resideInAnyPackage("dev.agentbus.eventbus..", "dev.agentbus.modelclient..",
                        "dev.agentbus.broker..", "dev.agentbus.api..", "dev.agentbus.telemetry..")
                .should().dependOnClassesThat().resideInAnyPackage(SERVICES.stream().map(s -> s + "..")
                        .toArray(String[]::new))
                .check(classes);
    }

    /**
     * Settings are {@code @ConfigurationProperties} records, one per concern, each checked when its service starts
     * (docs/configuration.md). A {@code @Value} parameter would read a setting past both: untyped, unchecked, and
     * with its default hidden in a placeholder string.
     */
    @Test
    void settings_are_read_through_typed_records_not_value_placeholders() {
        classes().should(new ArchCondition<>("read no setting through @Value") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                javaClass.getFields().stream().filter(field -> field.isAnnotatedWith(Value.class))
                        .forEach(field -> events.add(SimpleConditionEvent.violated(field,
                                field.getFullName() + " is annotated with @Value")));
                javaClass.getCodeUnits().stream()
                        .filter(unit -> unit.isAnnotatedWith(Value.class)
                                || unit.getParameters().stream().anyMatch(p -> p.isAnnotatedWith(Value.class)))
                        .forEach(unit -> events.add(SimpleConditionEvent.violated(unit,
                                unit.getFullName() + " reads a setting through @Value")));
            }
        }).because("settings are typed records checked at start; see docs/configuration.md").check(classes);
    }
}
