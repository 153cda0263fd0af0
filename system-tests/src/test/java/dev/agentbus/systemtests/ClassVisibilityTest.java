package dev.agentbus.systemtests;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * Classes are package-private unless another package needs them (the project's style): in a service, a public
 * class that no class of another package uses is an internal detail that says "use me from anywhere". Packages are
 * use cases, so what a use case keeps to itself stays invisible to the others, and what is public is the use case's
 * real surface. Tests do not count as a use: a test lives in the package of what it tests.
 */
class ClassVisibilityTest {
    /**
     * Public for a need the main code does not show, each with the reason. Tests of other modules are not on this
     * module's class path, so a test in another package that names a class has to be listed here.
     */
    static final Map<String, String> NEEDED_ELSEWHERE = Map.of(
            "dev.agentbus.orchestrator.running.OrchestratorRuntime",
            "the settings tests in orchestrator.config leave it out of their application context by its type");

    static JavaClasses all;

    @BeforeAll
    static void load() {
        // Every module's main classes, the benchmarks' too: a use from any of them counts.
        all = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.agentbus");
    }

    @Test
    void a_public_class_of_a_service_is_used_from_another_package() {
        String[] services = ArchitectureTest.SERVICES.stream().map(s -> s + "..").toArray(String[]::new);
        classes().that().resideInAnyPackage(services)
                .and().areTopLevelClasses()
                .and().arePublic()
                .and(DescribedPredicate.not(startedByName()))
                .and(DescribedPredicate.not(generated()))
                .and(DescribedPredicate.describe("not listed as needed elsewhere",
                        c -> !NEEDED_ELSEWHERE.containsKey(c.getName())))
                .should(beUsedFromAnotherPackage())
                .because("classes are package-private unless another package needs them")
                .check(all);
    }

    /** A main class is started by its name (java -jar, a process builder), not used by another class. */
    private static DescribedPredicate<JavaClass> startedByName() {
        return DescribedPredicate.describe("a main class", c -> c.getMethods().stream().anyMatch(m ->
                m.getName().equals("main") && m.getModifiers().contains(JavaModifier.STATIC)
                        && m.getRawParameterTypes().size() == 1
                        && m.getRawParameterTypes().getFirst().getName().equals(String[].class.getName())));
    }

    /** Micronaut's bean definitions ({@code $Foo$Definition}): written by the compiler, public by necessity. */
    private static DescribedPredicate<JavaClass> generated() {
        return DescribedPredicate.describe("generated",
                c -> c.getName().substring(c.getPackageName().length() + 1).startsWith("$"));
    }

    private static ArchCondition<JavaClass> beUsedFromAnotherPackage() {
        return new ArchCondition<>("be used from another package") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                // A use of a nested type (Effect.CallModel) is a use of the class that holds it.
                boolean used = c.getPackage().getClasses().stream()
                        .filter(t -> t.equals(c) || t.getName().startsWith(c.getName() + "$"))
                        .flatMap(t -> t.getDirectDependenciesToSelf().stream())
                        .anyMatch(d -> !d.getOriginClass().getPackageName().equals(c.getPackageName()));
                if (!used) {
                    events.add(SimpleConditionEvent.violated(c, c.getName()
                            + " is public but no class outside " + c.getPackageName() + " uses it"));
                }
            }
        };
    }
}
