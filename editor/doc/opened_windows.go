package doc

// keepOpenedFile: an open file would stop saves from replacing it.
const keepOpenedFile = false
