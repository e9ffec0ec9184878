select '/* nl: not a question */' as s;
select '-- nl: not a question' as s;
select 1 as "/* nl: x */";
select 1 as "-- nl: x";
select $$-- nl: not a question$$ as s;
select 'nl: plain text' as s;
