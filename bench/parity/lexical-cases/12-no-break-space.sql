select 1 as a;
 /* nl: after a no-break space (an identifier character to PostgreSQL) */
