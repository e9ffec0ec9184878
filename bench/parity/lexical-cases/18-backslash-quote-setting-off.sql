select 'a\'; /* nl: x */; select 1 as b' as s;
