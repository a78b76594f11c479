package io.spiffeidt.inspect;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No two packages of the inspect tool depend on each other, directly or through others, and its main code
 * uses the core's public API only: {@code io.spiffeidt.core.internal} is not API.
 */
class PackageCycleTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.spiffeidt.inspect");

    @Test
    void packagesWhenImportedThenFreeOfCycles() {
        // every package is its own slice, the root package included
        slices().matching("io.spiffeidt.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void mainCodeWhenImportedThenUsesNoCoreInternals() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.spiffeidt.core.internal..")
                .check(MAIN);
    }
}
