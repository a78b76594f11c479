package io.spiffeidt.core;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No two packages of the core depend on each other, directly or through others: a mode
 * never imports another mode, shared code moves down.
 */
class PackageCycleTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.spiffeidt.core");

    @Test
    void packagesWhenImportedThenFreeOfCycles() {
        // every package is its own slice, the root package included
        slices().matching("io.spiffeidt.(**)").should().beFreeOfCycles().check(MAIN);
    }
}
