package io.spiffeidt.support;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No two packages of workload-support depend on each other, directly or through others:
 * each concern owns its settings, and no root record knows every concern.
 */
class PackageCycleTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.spiffeidt.support");

    @Test
    void packagesWhenImportedThenFreeOfCycles() {
        // every package is its own slice, the root package included
        slices().matching("io.spiffeidt.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void mainCodeWhenImportedThenUsesNoCoreInternals() {
        // io.spiffeidt.core.internal is not API: only assertion-core uses it
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.spiffeidt.core.internal..")
                .check(MAIN);
    }
}
