/**
 * The one set of ajv options the frontmatter validators are built with, at build
 * time (scripts/generate-validators.ts) and by the plain path the tests compare with.
 * verbose: errors carry the failing (sub)schema, which the messages describe ("a list of strings").
 */
export const ajvOptions = { allErrors: true, strict: true, verbose: true } as const;
