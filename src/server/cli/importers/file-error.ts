// A file an importer cannot read (wrong tool, damaged, unknown version): its message is for the
// user as it stands (the CLI prints it with exit code 2, the console shows it under the file).
export class ImportFileError extends Error {}
