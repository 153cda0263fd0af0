package dev.agentbus.systemtests;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

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
                        "dev.agentbus.broker..", "dev.agentbus.api..")
                .should().dependOnClassesThat().resideInAnyPackage(SERVICES.stream().map(s -> s + "..")
                        .toArray(String[]::new))
                .check(classes);
    }

    /**
     * A placeholder default that holds a colon must be quoted ({@code ${key:`host:port`}}): Micronaut reads an
     * unquoted {@code ${key:a:b}} as "key, else property a, else b". That once made every worker pass over Docker
     * (its default image name has a tag) without a word.
     */
    @Test
    void no_setting_default_holds_an_unquoted_colon() {
        java.util.regex.Pattern unquoted = java.util.regex.Pattern.compile("\\$\\{[^}:`]+:[^}`]*:[^}]*}");
        List<String> offenders = new java.util.ArrayList<>();
        for (var javaClass : classes) {
            Class<?> type;
            try {
                type = javaClass.reflect();
            } catch (RuntimeException | LinkageError notLoadable) {
                continue;
            }
            List<java.lang.reflect.Executable> executables = new java.util.ArrayList<>(List.of(type.getDeclaredConstructors()));
            executables.addAll(List.of(type.getDeclaredMethods()));
            for (var executable : executables) {
                for (var annotations : executable.getParameterAnnotations()) {
                    for (var annotation : annotations) {
                        if (annotation instanceof io.micronaut.context.annotation.Value value
                                && unquoted.matcher(value.value()).find()) {
                            offenders.add(type.getName() + ": " + value.value());
                        }
                    }
                }
            }
        }
        org.assertj.core.api.Assertions.assertThat(offenders).isEmpty();
    }
}
