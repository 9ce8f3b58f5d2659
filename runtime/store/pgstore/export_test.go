package pgstore

// Migrations exposes the schema steps to the external tests, which build
// databases of older versions.
var Migrations = migrations
