"""Finding the right entry for what people type. Imports neither discord nor the database."""
