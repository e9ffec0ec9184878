select 1 as a;
/* nl: after a vertical tab (whitespace only from PostgreSQL 16) */
