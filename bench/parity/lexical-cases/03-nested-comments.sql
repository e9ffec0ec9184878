select 1 /* outer /* inner; -- nl: not a question */ still outer; */ as n;
/* a /* b /* c */ b */ a */ select 2 as n;
select 3 /*/ slash-star-slash */ as n;
select 4 /* stars **/ as n;
select 5 +-- a comment opening inside an operator
 1 as n;
/* /* nl: a nested marker */ */ select 6 as n;
